"""What works on rules files and games through the engine, which never imports it: formatting,
the lint, diff and resolve, reference docs, the event ledger, determinization, the agents, and
simulations (simulate, compare, arena). The CLI and the adapters use these."""
