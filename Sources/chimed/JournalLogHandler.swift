import CSystemd
import Glibc
import Logging

/// Logs straight to the systemd journal with structured fields, used when chimed's stderr is
/// the journal (systemd sets `JOURNAL_STREAM` to its device and inode). Each entry carries
/// MESSAGE (the text with its metadata, as the stream handler prints it), PRIORITY, the
/// code location, and every metadata key as a field of its own: `CHIME_APP` for the app id,
/// `CHIME_REQUEST_ID` for the request identifier, `CHIME_<KEY>` for the rest — so
/// `journalctl --user -u chimed CHIME_APP=org.example.tea` finds one app's lines.
struct JournalLogHandler: LogHandler {
  let label: String
  var metadata: Logger.Metadata = [:]

  init(label: String) { self.label = label }

  var logLevel: Logger.Level {
    get { LogLevelSwitch.shared.get() }
    set { LogLevelSwitch.shared.set(newValue) }
  }

  subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  /// True when stderr is the stream systemd connected to the journal.
  static func stderrIsJournal(environment: [String: String]) -> Bool {
    guard let value = environment["JOURNAL_STREAM"] else { return false }
    let parts = value.split(separator: ":")
    guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return false }
    var st = stat()
    guard fstat(2, &st) == 0 else { return false }
    return UInt64(st.st_dev) == device && UInt64(st.st_ino) == inode
  }

  func log(event: LogEvent) {
    let all = event.metadata.map { metadata.merging($0) { _, new in new } } ?? metadata
    let pairs = all.sorted { $0.key < $1.key }
    let text = pairs.isEmpty ? "\(event.message)" : "\(pairs.map { "\($0.key)=\($0.value)" }.joined(separator: " ")) \(event.message)"
    var fields = [
      "MESSAGE=\(text)", "PRIORITY=\(Self.priority(event.level))", "SYSLOG_IDENTIFIER=chimed",
      "CODE_FILE=\(event.file)", "CODE_LINE=\(event.line)", "CODE_FUNC=\(event.function)", "CHIME_LOGGER=\(label)",
      "CHIME_SOURCE=\(event.source)",
    ]
    for (key, value) in pairs { fields.append("\(Self.fieldName(key))=\(value)") }
    Self.send(fields)
  }

  /// syslog(3) priorities, as journald reads them.
  static func priority(_ level: Logger.Level) -> Int {
    switch level {
    case .trace, .debug: 7
    case .info: 6
    case .notice: 5
    case .warning: 4
    case .error: 3
    case .critical: 2
    }
  }

  /// A journal field name for a metadata key: upper case letters, digits and underscores,
  /// under `CHIME_`; the app id and the request identifier get the names people search for.
  static func fieldName(_ key: String) -> String {
    switch key {
    case "app": return "CHIME_APP"
    case "id", "identifier": return "CHIME_REQUEST_ID"
    default:
      let cleaned = String(key.uppercased().unicodeScalars.map { scalar -> Character in
        (scalar >= "A" && scalar <= "Z") || (scalar >= "0" && scalar <= "9") ? Character(scalar) : "_"
      })
      return "CHIME_" + cleaned
    }
  }

  private static func send(_ fields: [String]) {
    let bytes = fields.map { Array($0.utf8) }
    let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.reduce(0) { $0 + $1.count }, 1), alignment: 1)
    defer { storage.deallocate() }
    var vectors: [iovec] = []
    vectors.reserveCapacity(bytes.count)
    var offset = 0
    for field in bytes {
      let slice = UnsafeMutableRawBufferPointer(rebasing: storage[offset..<(offset + field.count)])
      slice.copyBytes(from: field)
      vectors.append(iovec(iov_base: slice.baseAddress, iov_len: field.count))
      offset += field.count
    }
    _ = sd_journal_sendv(vectors, Int32(vectors.count))
  }
}
