// ChimeServerTests
