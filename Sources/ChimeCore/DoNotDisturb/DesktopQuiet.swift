/// The desktop's own Do Not Disturb: the notification server is paused (dunst,
/// `dunstctl set-paused true`: property `paused` on `org.dunstproject.cmd0`) or inhibited (KDE
/// Plasma: property `Inhibited` on `org.freedesktop.Notifications`). The raw value is what the
/// status shows.
public enum DesktopQuiet: String, Hashable, Sendable, CaseIterable {
  case dunstPaused = "dunst paused"
  case kdeInhibited = "KDE inhibited"

  /// The state from the two properties (dunst's named first when both are set).
  public static func from(dunstPaused: Bool, kdeInhibited: Bool) -> DesktopQuiet? {
    dunstPaused ? .dunstPaused : kdeInhibited ? .kdeInhibited : nil
  }
}
