/// What a sound player's failed run is called in a `presentation-failed` event, from what it
/// wrote on stderr and how it ended. Pure.
///
/// Players name the file in their last line whatever went wrong: ffplay with no audio device
/// ends with "Failed to open file '…message-new-instant.oga' or configure filtergraph" after
/// "Couldn't open audio device", and exits 0. So a line that says the audio output could not be
/// opened is looked for first, and the failure is called what it is: no audio output. A
/// player's exit status is added only when it was a failure: "exited with status 0" next to an
/// error reads as if the error were the status.
public enum PlayerFailure {
  /// What players print when the audio output (device or sound server) cannot be opened,
  /// lowercased: ffplay/SDL, aplay (ALSA), paplay (PulseAudio), pw-play (PipeWire).
  static let noOutputMarks = [
    "open audio device", "audio open failed", "audio open error", "no such audio device", "no audio device",
    "connection failure", "failed to connect", "can't connect", "pw_context_connect", "unknown pcm",
  ]

  /// `"<player>: no audio output: <the line saying so>"` when a line of `stderr` says the
  /// output could not be opened; else `"<player>: <last line>"`; either followed by
  /// ` (<ending>)` when `ending` (the exit status or signal) is given, which the caller leaves
  /// nil for an exit with status 0. With nothing on stderr: `"<player>: <ending>"`.
  public static func describe(player: String, stderr: String, ending: String?) -> String {
    let lines = stderr.split(whereSeparator: \.isNewline).map { String($0).trimmed }.filter { !$0.isEmpty }
    let suffix = ending.map { " (\($0))" } ?? ""
    let saysNoOutput = lines.filter { line in
      let lower = line.lowercased()
      return noOutputMarks.contains { lower.contains($0) }
    }
    // alsa-lib's own lines ("ALSA lib pcm.c:2666:(snd_pcm_open_noupdate) Unknown PCM default")
    // only when the player said nothing plainer.
    if let line = saysNoOutput.first(where: { !$0.hasPrefix("ALSA lib ") }) ?? saysNoOutput.first {
      return "\(player): no audio output: \(line)\(suffix)"
    }
    guard let last = lines.last else { return "\(player): \(ending ?? "failed without saying why")" }
    return "\(player): \(last)\(suffix)"
  }
}

extension String {
  fileprivate var trimmed: String {
    var s = Substring(self)
    while let c = s.first, c == " " || c == "\t" { s = s.dropFirst() }
    while let c = s.last, c == " " || c == "\t" { s = s.dropLast() }
    return String(s)
  }
}
