public import ChimeCore
import Glibc

/// The `chime-thumbnail` program: chimed and `chime attachment thumbnail` run it for each
/// thumbnail instead of linking the image and movie decoders (gdk-pixbuf, FFmpeg and what they
/// load), so those neither weigh on every start of the daemon and the CLI nor decode untrusted
/// files inside the daemon. Each render is one process with a wall-clock timeout (its process
/// group killed and reaped), an address-space and a CPU limit it sets on itself before it opens
/// the file, and its stderr read up to a bound.
public struct ThumbnailHelper: Sendable, Hashable {
  /// The helper's file name.
  public static let name = "chime-thumbnail"
  /// Where `make install` puts it, relative to the directory of the installed `chime`/`chimed`.
  public static let libexecRelative = "../libexec/chime"

  public var path: String
  /// Wall-clock time one render may take before it is killed.
  public var timeoutMillis: Int = 10_000
  /// RLIMIT_AS: a 50-megapixel image decoded, cropped and scaled fits with room to spare.
  public var memoryLimitMiB: Int = 1024
  /// RLIMIT_CPU.
  public var cpuLimitSeconds: Int = 10

  public init(path: String) { self.path = path }

  /// How a render that produced no thumbnail ended.
  public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
    /// The helper ran and said no (exit 1): the file does not decode, is audio, ...
    case refused(ChimeError)
    /// Killed by a signal (a crash, or the CPU or memory limit), or an exit with no reason line.
    case crashed(String)
    /// Still running at the limit: killed and reaped.
    case timedOut(millis: Int)
    case failedToStart(String)

    public var description: String {
      switch self {
      case .refused(let error): "refused: \(error.reason): \(error.message)"
      case .crashed(let what): "crashed: \(what)"
      case .timedOut(let millis): "timed out: still running after \(millis) ms; killed"
      case .failedToStart(let what): "could not start: \(what)"
      }
    }

    /// What chimed records: INTERNAL `THUMBNAIL_RENDER_FAILED` whose message says which.
    public var error: ChimeError { ChimeError(.thumbnailRenderFailed, "\(ThumbnailHelper.name) \(description)") }
  }

  /// The rendered thumbnail's size.
  public struct Rendered: Hashable, Sendable {
    public var width: Int
    public var height: Int
  }

  /// Renders `job` (its limits are set from this helper's): the PNG is at `job.output` on return.
  /// Blocks: call it on a work pool, never on the loop. Leaves no temporary behind.
  public func render(_ job: ThumbnailJob) throws(Failure) -> Rendered {
    var job = job
    job.memoryLimitMiB = memoryLimitMiB
    job.cpuLimitSeconds = cpuLimitSeconds
    let run = Subprocess.capture([path] + job.arguments, timeoutMillis: timeoutMillis, maxOutputBytes: 2048)
    if run.pid > 0, run.outcome != .exited(0) {
      // Killed mid-write: its temporary is named after its pid.
      unlink(Self.temporaryPath(for: job.output, pid: run.pid))
    }
    let line = run.lastErrorLine
    switch run.outcome {
    case .exited(0):
      let words = String(decoding: run.stdout, as: UTF8.self).split(whereSeparator: \.isWhitespace)
      let size = words.first?.split(separator: "x").compactMap { Int($0) } ?? []
      guard size.count == 2 else { throw .crashed("exited 0 without printing WxH") }
      return Rendered(width: size[0], height: size[1])
    case .exited(let code):
      if code == 1, let error = ThumbnailJob.refusal(fromLine: line) { throw .refused(error) }
      throw .crashed("exited with status \(code)" + (line.isEmpty ? "" : ": \(line)"))
    case .signaled(let signal):
      let name = signal == SIGXCPU ? " (CPU limit)" : signal == SIGSEGV ? " (SIGSEGV)" : signal == SIGABRT ? " (SIGABRT)" : ""
      throw .crashed("killed by signal \(signal)\(name)" + (line.isEmpty ? "" : ": \(line)"))
    case .timedOut(let millis):
      throw .timedOut(millis: millis)
    case .failedToStart(let errno):
      throw .failedToStart("\(path): \(errno)")
    }
  }

  /// Where the helper writes before renaming into `output`.
  public static func temporaryPath(for output: String, pid: Int32) -> String { "\(output).staging-\(pid)" }

  /// The helper to run: `configured` when given (nil when it is not an executable file), else
  /// `chime-thumbnail` beside this process's executable, else in the libexec directory beside
  /// its `bin` (`make install`).
  public static func locate(configured: String? = nil) -> String? {
    if let configured, !configured.isEmpty {
      return isExecutable(configured) ? configured : nil
    }
    return candidates().first(where: isExecutable)
  }

  /// Where `locate` looks when nothing is configured, in order.
  public static func candidates() -> [String] {
    guard let executable = FileSystem.realPath("/proc/self/exe") else { return [] }
    let directory = executable.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
    return [directory + "/" + name, directory + "/" + libexecRelative + "/" + name]
  }

  private static func isExecutable(_ path: String) -> Bool {
    FileSystem.status(path)?.kind == .regular && access(path, X_OK) == 0
  }
}
