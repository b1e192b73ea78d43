// ChimeTestSupport
