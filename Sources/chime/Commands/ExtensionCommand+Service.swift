import ArgumentParser
import ChimeClient
import ChimeCore
import FoundationEssentials
import ChimeSystem

/// `chime extension run --service`: a service extension from the terminal, for trying pushes.
extension ExtensionCommand {
  func runService() async throws {
    let id = try identifier()
    let seconds = DurationText.parse(delay) ?? 0
    let title = setTitle, files = attachments, json = options.json, limit = requests
    try await reporting(json: options.json) {
      let client = try options.connect()
      let work = ServiceWork()
      try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask {
          for try await event in client.registerServiceExtension(id) {
            if event.registered {
              say(json ? #"{"registered":true,"service":true}"# : "registered \(id) as the service extension")
            } else if let request = event.serviceRequest {
              let content = request.request.content
              say(json ? JSONOutput.line(["service_request": request.id, "id": request.request.identifier])
                       : "service request \(request.id) for \(request.request.identifier)  \"\(ContentText.headline(content))\"")
              // The best attempt so far: what is cheap to change at once.
              var best = content
              if let title { best.title = title }
              await work.begin(request.id, best: best)
              Task {
                try? await Task.sleep(for: .seconds(seconds))
                // Already answered with the best attempt: nothing more to send (or copy).
                guard var full = await work.finish(request.id) else { return }
                var copies: [String] = []
                do {
                  for file in files { copies.append(try copyForAttaching(file)) }
                  full.attachments = copies.map { Attachment(path: $0) }
                } catch {
                  for copy in copies { try? FileManager.default.removeItem(atPath: copy) }
                  try? await client.answerService(request.id, extension: id, with: .failed("\(error)"))
                  say(json ? #"{"failed":\#(request.id)}"# : "failed \(request.id): \(error)")
                  await work.answered()
                  return
                }
                do {
                  try await client.answerService(request.id, extension: id, with: .content(full))
                  say(json ? #"{"answered":\#(request.id)}"# : "answered \(request.id)  \"\(full.title)\"  \(full.attachments.count) attachment(s)")
                } catch {
                  for copy in copies { try? FileManager.default.removeItem(atPath: copy) }
                  say(json ? #"{"late":\#(request.id)}"# : "answer to \(request.id) not taken: \(error)")
                }
                await work.answered()
              }
            } else if event.serviceTimeWillExpire != 0 {
              let requestID = event.serviceTimeWillExpire
              guard let best = await work.finish(requestID) else { continue }
              try await client.answerService(requestID, extension: id, with: .content(best))
              say(json ? #"{"best_attempt":\#(requestID)}"# : "time will expire for \(requestID): sent the best attempt  \"\(best.title)\"")
              await work.answered()
            }
          }
          throw ChimeError(.connectionClosed, "the daemon ended the stream")
        }
        if let limit {
          group.addTask { await work.waitUntilFinished(limit) }
        }
        try await group.next()
        group.cancelAll()
      }
    }
  }
}

private func say(_ line: String) {
  print(line)
  StandardStreams.flush()
}

/// A copy of `path` in the temporary directory: chimed moves an attachment's file into its
/// store, and the user's own file should stay.
private func copyForAttaching(_ path: String) throws -> String {
  let source = URL(fileURLWithPath: path)
  let copy = FileManager.default.temporaryDirectory
    .appendingPathComponent("chime-service-\(UUID().uuidString.lowercased())")
    .appendingPathExtension(source.pathExtension)
  try FileManager.default.copyItem(at: source, to: copy)
  return copy.path
}

/// The requests being worked on, each answered once (by its work or its best attempt).
private actor ServiceWork {
  private var pending: [UInt64: NotificationContent] = [:]
  private var finished = 0
  private var waiters: [(Int, CheckedContinuation<Void, Never>)] = []

  func begin(_ id: UInt64, best: NotificationContent) { pending[id] = best }

  /// The best attempt of `id` when it was still pending (the caller answers it), else nil.
  func finish(_ id: UInt64) -> NotificationContent? {
    pending.removeValue(forKey: id)
  }

  /// An answer was sent (or refused): counts towards --requests.
  func answered() {
    finished += 1
    let ready = waiters.filter { $0.0 <= finished }
    waiters.removeAll { $0.0 <= finished }
    for (_, waiter) in ready { waiter.resume() }
  }

  func waitUntilFinished(_ count: Int) async {
    if finished >= count { return }
    await withCheckedContinuation { waiters.append((count, $0)) }
  }
}
