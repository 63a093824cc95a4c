"""Playing a variant in the terminal: a game session, its screen, and the person's prompts."""
