import ChimeCore
import Testing

/// App-supplied text printed on a terminal shows control characters escaped, so no app of the
/// user can repaint, retitle or reorder the user's terminal through a title.
@Suite struct TerminalTextTests {
  @Test(arguments: [
    ("plain text", "plain text"),
    ("Tea ☕️ 茶", "Tea ☕️ 茶"),
    ("\u{1B}[31mred", "\\e[31mred"),
    ("\u{1B}]0;pwned\u{07}", "\\e]0;pwned\\x07"),
    ("a\nb\rc\td", "a\\nb\\rc\\td"),
    ("nul\u{0}del\u{7F}", "nul\\x00del\\x7F"),
    ("csi\u{9B}31m", "csi\\u{009B}31m"),
    ("\u{202E}txt.exe", "\\u{202E}txt.exe"),
    ("back\\slash", "back\\slash"),
  ])
  func controlsAreShownEscaped(input: String, shown: String) {
    #expect(TerminalText.escaped(input) == shown)
  }

  @Test func blocksKeepTheirLineBreaksButNotTheirEscapes() {
    #expect(TerminalText.escaped("one\n\u{1B}[2Jtwo\n", keepingNewlines: true) == "one\n\\e[2Jtwo\n")
  }

  @Test func escapingTwiceChangesNothing() {
    let once = TerminalText.escaped("\u{1B}[31m\u{07}\u{202E}x")
    #expect(TerminalText.escaped(once) == once)
  }

  @Test func nothingPrintedCarriesAControlCharacter() {
    var text = ""
    for value in UInt32(0)...0x2070 { if let s = Unicode.Scalar(value) { text.unicodeScalars.append(s) } }
    let shown = TerminalText.escaped(text)
    #expect(!shown.unicodeScalars.contains(where: TerminalText.needsEscape))
  }
}
