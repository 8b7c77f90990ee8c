"""Deadline calendars: iCalendar feeds at secret, revocable addresses (a user's games; a tournament's)."""
