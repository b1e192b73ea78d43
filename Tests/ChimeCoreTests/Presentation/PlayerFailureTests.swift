import ChimeCore
import Testing

/// A sound player's failure in words: no audio output is called that, whatever file the
/// player's last line names, and an exit status 0 is never given as the failure.
@Suite struct PlayerFailureTests {
  static let theme = "/usr/share/sounds/freedesktop/stereo/message-new-instant.oga"

  @Test func ffplayWithoutAnAudioDevice() {
    let stderr = """
      SDL_OpenAudio (2 channels, 44100 Hz): ALSA: Couldn't open audio device: No such file or directory
      SDL_OpenAudio (1 channels, 44100 Hz): ALSA: Couldn't open audio device: No such file or directory
      No more combinations to try, audio open failed
      Failed to open file '\(Self.theme)' or configure filtergraph

      """
    #expect(PlayerFailure.describe(player: "ffplay", stderr: stderr, ending: nil)
      == "ffplay: no audio output: SDL_OpenAudio (2 channels, 44100 Hz): ALSA: Couldn't open audio device: No such file or directory")
  }

  @Test func otherPlayersWithoutAnOutput() {
    #expect(PlayerFailure.describe(player: "paplay", stderr: "Connection failure: Connection refused\n", ending: "exited with status 1")
      == "paplay: no audio output: Connection failure: Connection refused (exited with status 1)")
    #expect(PlayerFailure.describe(player: "aplay", stderr: "ALSA lib pcm.c:2666:(snd_pcm_open_noupdate) Unknown PCM default\naplay: main:831: audio open error: No such file or directory\n",
                                   ending: "exited with status 1")
      == "aplay: no audio output: aplay: main:831: audio open error: No such file or directory (exited with status 1)")
    #expect(PlayerFailure.describe(player: "pw-play", stderr: "pw-play: can't connect: Host is down\n", ending: "exited with status 1")
      == "pw-play: no audio output: pw-play: can't connect: Host is down (exited with status 1)")
  }

  @Test func anyOtherFailureIsTheLastLineAndTheEndingOnlyWhenItFailed() {
    #expect(PlayerFailure.describe(player: "ffplay", stderr: "x.oga: Invalid data found when processing input\n", ending: nil)
      == "ffplay: x.oga: Invalid data found when processing input")
    #expect(PlayerFailure.describe(player: "my-player", stderr: "first\n  bad file  \n", ending: "exited with status 3")
      == "my-player: bad file (exited with status 3)")
    #expect(PlayerFailure.describe(player: "my-player", stderr: "", ending: "killed by signal 9") == "my-player: killed by signal 9")
  }
}
