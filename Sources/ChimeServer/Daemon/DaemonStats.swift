/// Counters read off the loop for tests and the benchmark.
public struct DaemonStats: Sendable, Hashable {
  public var connections = 0
  /// In-process transport calls in flight (streams included).
  public var inProcessCalls = 0
  public var scheduleWindowKeys = 0
  public var subscribers = 0
  /// Start-up sweep: store files removed because no row named them.
  public var attachmentsSwept = 0
  /// Start-up sweep: rows whose file was gone.
  public var attachmentsMissing: [String] = []
  /// Attachment adds staging now, and waiting for their turn.
  public var fileLaneRunning = 0
  public var fileLaneQueued = 0
  /// Times freed heap memory was handed back after calls went quiet (`IdleTrim`).
  public var heapTrims = 0

  public init() {}
}
