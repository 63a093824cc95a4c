"""The generic fishing-game engine: compiled tables, round and game state machines, ledger.

Nothing here knows a game by name: every value, yaku and payment comes from the IR.
"""
