import ChimeCore
import Foundation

/// A plain-text table with columns padded to their widest cell.
struct Table {
  let headers: [String]
  private var rows: [[String]] = []

  init(headers: [String]) { self.headers = headers }

  /// Cells are escaped here, before widths are measured (a newline or an escape sequence in a
  /// title shows as `\n` / `\e`).
  mutating func add(_ row: [String]) { rows.append(row.map { TerminalText.escaped($0) }) }

  func render() -> String {
    let all = [headers] + rows
    let widths = headers.indices.map { column in all.map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0 }
    var out = ""
    for row in all {
      let cells = row.enumerated().map { i, cell in i == row.count - 1 ? cell : cell.padding(toLength: widths[i], withPad: " ", startingAt: 0) }
      out += cells.joined(separator: "  ") + "\n"
    }
    return out
  }
}
