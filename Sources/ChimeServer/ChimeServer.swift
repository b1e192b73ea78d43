// ChimeServer
