extension DesktopNotificationPlan {
  /// The plan for a ringing alarm: critical urgency (servers keep such a popup until it is
  /// closed), resident where the server keeps notifications (`persistence`: it stays after an
  /// action, until closed), no expiry, and the server's own sound suppressed: Chime plays the
  /// sound itself, again at each play's end, for as long as it rings.
  public func ringing(capabilities: Set<String>, sound: SoundChoice) -> DesktopNotificationPlan {
    var plan = self
    let replaced: Set<String> = ["urgency", "resident", "sound-file", "sound-name", "suppress-sound"]
    plan.hints.removeAll { replaced.contains($0.key) }
    plan.hints.insert(Hint("urgency", .byte(2)), at: 0)
    if capabilities.contains("persistence") { plan.hints.append(Hint("resident", .boolean(true))) }
    plan.hints.append(Hint("suppress-sound", .boolean(true)))
    plan.expireTimeout = 0
    plan.chimePlays = sound
    return plan
  }
}
