// ChimeStoreTests
