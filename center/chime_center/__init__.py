"""Chime Center: the user's settings and lists of Chime, a GTK 4 + libadwaita app that talks to
chimed over its D-Bus API only (io.github.chime.Chime1)."""
APP_ID = "io.github.chime.Center"
