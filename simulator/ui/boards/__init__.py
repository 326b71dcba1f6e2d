"""The pygame-ce windows of the two Deadlands boards (Slaughter Gulch and Doomtown)."""
