// ChimeStore
