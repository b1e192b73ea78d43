// ChimeCoreTests
