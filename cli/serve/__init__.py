"""`amunre serve`: play in the browser, watch bots, step through logs (the `serve` extra)."""
