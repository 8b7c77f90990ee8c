"""English pages keep corr's ISO dates (2026-03-04), as before the other languages came: Russian and
French pages use Django's own formats of their locale (04.03.2026, 04/03/2026)."""

DATE_FORMAT = "j F Y"
SHORT_DATE_FORMAT = "Y-m-d"
SHORT_DATETIME_FORMAT = "Y-m-d H:i"
