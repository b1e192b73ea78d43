import ChimeCore
import ChimeSystem
import FoundationEssentials

/// A plain-text table with columns padded to their widest cell, measured in terminal columns
/// (`DisplayWidth`: CJK and emoji take two, combining marks none). Given a width, the widest
/// columns are narrowed until a row fits, and cells cut with "…": the columns in `cutFirst`
/// (free text such as a title) first, then the others, the columns in `keep` (times) only when
/// that is not enough. The columns in `whole` (identifiers: what people type next) are never
/// cut.
struct Table {
  let headers: [String]
  let keep: Set<Int>
  let whole: Set<Int>
  let cutFirst: Set<Int>
  private var rows: [[String]] = []

  init(headers: [String], keep: Set<Int> = [], whole: Set<Int> = [], cutFirst: Set<Int> = []) {
    self.headers = headers
    self.keep = keep
    self.whole = whole
    self.cutFirst = cutFirst
  }

  /// The columns narrowed in turn: `cutFirst`, then the rest, then `keep`; never `whole`.
  private var tiers: [Set<Int>] {
    let all = Set(headers.indices).subtracting(whole)
    let first = cutFirst.intersection(all)
    let last = keep.intersection(all).subtracting(first)
    return [first, all.subtracting(first).subtracting(last), last]
  }

  /// Cells are escaped here, before widths are measured (a newline or an escape sequence in a
  /// title shows as `\n` / `\e`).
  mutating func add(_ row: [String]) { rows.append(row.map { TerminalText.escaped($0) }) }

  /// The table; with `width`, no line is wider than that many columns (unless every column is
  /// already at its narrowest: its header's width, at least 6; a `whole` column its widest cell).
  func render(width: Int? = nil) -> String {
    let all = [headers] + rows
    var widths = headers.indices.map { column in
      all.map { $0.indices.contains(column) ? DisplayWidth.of($0[column]) : 0 }.max() ?? 0
    }
    if let width {
      let floors = widths.indices.map { min(widths[$0], max(6, DisplayWidth.of(headers[$0]))) }
      var excess = widths.reduce(0, +) + 2 * max(0, widths.count - 1) - width
      for tier in tiers {
        while excess > 0 {
          let narrowable = tier.filter { widths[$0] > floors[$0] }
          guard let widest = narrowable.max(by: { widths[$0] < widths[$1] }) else { break }
          widths[widest] -= 1
          excess -= 1
        }
      }
    }
    var out = ""
    for row in all {
      let cells = row.enumerated().map { i, cell in
        let fitted = DisplayWidth.truncated(cell, to: widths[i])
        return i == row.count - 1 ? fitted : DisplayWidth.padded(fitted, to: widths[i])
      }
      out += cells.joined(separator: "  ") + "\n"
    }
    return out
  }
}

/// How wide a table may be: `--width N` when given (0: no limit), else the terminal's width when
/// stdout is a terminal ($COLUMNS, else TIOCGWINSZ on stdout), else no limit (piped output is
/// never cut unless asked).
enum OutputWidth {
  static func columns(requested: Int?) -> Int? {
    if let requested { return requested > 0 ? requested : nil }
    guard StandardStreams.outputIsTerminal else { return nil }
    if let text = ProcessEnvironment.variables["COLUMNS"], let columns = Int(text), columns > 0 { return columns }
    return StandardStreams.terminalColumns
  }
}

extension String {
  /// Cut or padded with spaces to `width` characters, as Foundation's
  /// `padding(toLength:withPad: " ", startingAt: 0)` gives it for the ASCII words it is used on.
  func padded(to width: Int) -> String {
    count >= width ? String(prefix(width)) : self + String(repeating: " ", count: width - count)
  }
}
