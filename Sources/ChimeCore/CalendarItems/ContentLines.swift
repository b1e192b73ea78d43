/// An iCalendar text as content lines (RFC 5545 section 3.1) with the bytes each one spans, for
/// editing a few lines and keeping every other byte: a line runs from its first byte through
/// the line ending of its last folded continuation (a following line that starts with a space
/// or tab). Lines may end in CRLF or a bare LF; what is inserted ends as the file's first line
/// does. Components are found from their BEGIN and END lines. Pure.
struct ContentLines {
  struct Line {
    /// Bytes `start..<end`, the line ending(s) included.
    var start: Int
    var end: Int
  }

  struct Component {
    var name: String
    var begin: Line
    var end: Line
    /// Its own property lines: not its BEGIN/END, not those of components inside it.
    var lines: [Line]
  }

  let bytes: [UInt8]
  let lines: [Line]
  /// CRLF, unless the first line ends in a bare LF.
  let newline: [UInt8]

  init(_ bytes: [UInt8]) {
    self.bytes = bytes
    var lines: [Line] = []
    var i = 0
    while i < bytes.count {
      let start = i
      // A physical line, then the folded ones after it.
      repeat {
        while i < bytes.count && bytes[i] != 0x0A { i += 1 }
        if i < bytes.count { i += 1 }
      } while i < bytes.count && (bytes[i] == 0x20 || bytes[i] == 0x09)
      lines.append(Line(start: start, end: i))
    }
    self.lines = lines
    let firstEnd = bytes.firstIndex(of: 0x0A)
    newline = firstEnd.map { $0 > 0 && bytes[$0 - 1] == 0x0D } ?? true ? [0x0D, 0x0A] : [0x0A]
  }

  /// The line unfolded, without its line ending.
  func text(_ line: Line) -> String {
    var out: [UInt8] = []
    var i = line.start
    while i < line.end {
      let b = bytes[i]
      if b == 0x0D && i + 1 < line.end && bytes[i + 1] == 0x0A {
        i += 2
      } else if b == 0x0A {
        i += 1
      } else {
        out.append(b)
        i += 1
        continue
      }
      // A fold: the line ending and the one space or tab after it are dropped.
      if i < line.end && (bytes[i] == 0x20 || bytes[i] == 0x09) { i += 1 }
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// The line's bytes as written (folds kept), without its final line ending.
  func raw(_ line: Line) -> String {
    var end = line.end
    if end > line.start && bytes[end - 1] == 0x0A { end -= 1 }
    if end > line.start && bytes[end - 1] == 0x0D { end -= 1 }
    return String(decoding: bytes[line.start..<end], as: UTF8.self)
  }

  /// The property name, upper-cased: what comes before the first `;` or `:`.
  func name(of line: Line) -> String {
    let text = text(line)
    let end = text.firstIndex { $0 == ";" || $0 == ":" } ?? text.endIndex
    return text[..<end].uppercased()
  }

  /// The value: what follows the first `:` outside a quoted parameter value.
  func value(of line: Line) -> String {
    var quoted = false
    let text = text(line)
    for index in text.indices {
      switch text[index] {
      case "\"": quoted.toggle()
      case ":" where !quoted: return String(text[text.index(after: index)...])
      default: continue
      }
    }
    return ""
  }

  /// The components at `depth` (0: VCALENDAR, 1: VEVENT, VTODO, VTIMEZONE..., 2: VALARM...),
  /// in text order. An unbalanced END closes what it names; a component never closed is left out.
  func components(depth: Int) -> [Component] {
    var open: [(name: String, begin: Line, lines: [Line])] = []
    var found: [Component] = []
    for line in lines {
      let name = name(of: line)
      if name == "BEGIN" {
        open.append((value(of: line).uppercased(), line, []))
      } else if name == "END" {
        let closing = value(of: line).uppercased()
        guard let at = open.lastIndex(where: { $0.name == closing }) else { continue }
        if at == depth && open.count - 1 == at {
          found.append(Component(name: closing, begin: open[at].begin, end: line, lines: open[at].lines))
        }
        open.removeSubrange(at...)
      } else if !open.isEmpty {
        open[open.count - 1].lines.append(line)
      }
    }
    return found
  }

  /// The text with `edits` made (ranges that do not overlap; insertions at one offset in the
  /// order given), each inserted line ended with `newline`.
  func applying(_ edits: [Edit]) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count + 256)
    var at = 0
    for edit in edits.enumerated().sorted(by: { ($0.element.range.lowerBound, $0.offset) < ($1.element.range.lowerBound, $1.offset) }) {
      out += bytes[at..<edit.element.range.lowerBound]
      for line in edit.element.lines {
        out += Array(line.utf8)
        out += newline
      }
      at = max(at, edit.element.range.upperBound)
    }
    out += bytes[at...]
    return out
  }
}
