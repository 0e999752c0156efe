"""How a position changes while a game is played: material (resources, tokens, cards, owners,
modifiers), card plays and sales, decks, set-up, observation, and the automatic step that
drives the running phase's mechanic between two decisions. Imports base/, dsl/ and model."""
