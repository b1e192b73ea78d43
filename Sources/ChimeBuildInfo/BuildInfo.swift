import ChimeCore

/// What `chime --version` and `chimed --version` print, and what chimed reports to clients:
/// Chime's release number and, when built from a git clone, the commit (`gitRevision` is written
/// before each build by the GitRevision plugin). Its own small target, so a new commit
/// recompiles this file and nothing else.
public enum BuildInfo {
  public static let version = ChimeVersion.described(revision: gitRevision)
}
