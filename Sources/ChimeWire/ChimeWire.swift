// ChimeWire
