/// Chime's version, shown by `chime --version` and `chimed --version` (one place for both).
public enum ChimeVersion {
  public static let string = "0.4.0"

  /// The release number with the commit it was built from, when known:
  /// "0.4.0 (git 1a2b3c4d5e6f)", "0.4.0 (git 1a2b3c4d5e6f-dirty)", or "0.4.0".
  public static func described(revision: String?) -> String {
    guard let revision, !revision.isEmpty else { return string }
    return "\(string) (git \(revision))"
  }
}
