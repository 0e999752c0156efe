"""What every layer of the engine shares, importing nothing else of amunre: the errors, the
limits, the position as plain data (`GameState`), the seeded generator, causes, the integer
action space and the cache folder."""
