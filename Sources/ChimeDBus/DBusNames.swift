import ChimeCore

/// The names chimed's D-Bus API goes by. Reverse-DNS and versioned, as the D-Bus API design
/// guidelines ask: an incompatible API would be `…Chime2`, served beside this one. The object
/// path is the name with `/` for `.`, the interface the name itself; the bus name taken is
/// `DBusConfiguration.name`, the same by default.
enum DBusNames {
  static let objectPath = "/io/github/chime/Chime1"
  static let interface = "io.github.chime.Chime1"

  /// `io.github.chime.Chime1.Error.<REASON>`: a reason is already a valid name element
  /// (capitals, digits, underscores); anything else a peer's reason holds becomes `_`.
  static func errorName(_ error: ChimeError) -> String {
    var element = String(error.reason.unicodeScalars.prefix(200).map { scalar -> Character in
      let ok = (scalar >= "A" && scalar <= "Z") || (scalar >= "a" && scalar <= "z") || (scalar >= "0" && scalar <= "9") || scalar == "_"
      return ok ? Character(scalar) : "_"
    })
    if element.isEmpty || element.first!.isNumber { element = "E" + element }
    return interface + ".Error." + element
  }

  /// Chime's message, with the field it names: `badge must be within … [content.badge]`.
  static func errorMessage(_ error: ChimeError) -> String {
    error.field.isEmpty ? error.message : "\(error.message) [\(error.field)]"
  }
}
