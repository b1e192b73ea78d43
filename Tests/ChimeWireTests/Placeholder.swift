// ChimeWireTests
