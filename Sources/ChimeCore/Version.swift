/// Chime's version, shown by `chime --version` and `chimed --version` (one place for both).
public enum ChimeVersion {
  public static let string = "0.4.0"
}
