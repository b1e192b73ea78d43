// ChimeClient
