import ArgumentParser
import ChimeClient
import ChimeCore

struct Remove: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "remove",
    abstract: "Remove pending notifications.",
    discussion: """
      Examples:
        chime remove tea
        chime remove tea stretch
        chime remove --all
      """
  )

  @OptionGroup var options: ClientOptions

  @Argument(help: "Identifiers of the pending requests to remove.")
  var identifiers: [String] = []

  @Flag(help: "Remove every pending request of the app.")
  var all = false

  @Flag(help: "Exit 0 even when an identifier named is not pending.")
  var ignoreMissing = false

  func validate() throws {
    if all == !identifiers.isEmpty { throw ValidationError("give identifiers or --all") }
  }

  func run() async throws {
    try await reporting(json: options.json) {
      let client = try options.connect()
      let removed = all ? try await client.removeAllPending() : try await client.removePending(identifiers)
      let missing = all ? [] : identifiers.filter { !removed.contains($0) }
      // A request named that is no longer pending may have fired: say so, and how to remove it.
      var deliveredIDs: Set<String> = []
      if !missing.isEmpty && (!ignoreMissing || options.json) {
        deliveredIDs = Set(try await client.allDelivered().map(\.request.identifier)).intersection(missing)
      }
      let app = options.appID
      try report(removed: removed, asked: all ? nil : identifiers, json: options.json, what: "pending", ignoreMissing: ignoreMissing) { id in
        ChimeError(.notificationNotPending, deliveredIDs.contains(id)
          ? "\(id) is not pending: it was delivered (remove it with: chime delivered --remove \(id))"
          : "\(id) is not pending (no pending notification of \(app) has this identifier)")
      } alsoKnown: { deliveredIDs.contains($0) ? "delivered" : nil }
    }
  }
}

/// Prints what a remove did and refuses the identifiers asked for and not removed: each gets
/// `refusal(id)` on stderr in the `STATUS REASON: message` form, and the command exits 1.
/// With `ignoreMissing` they are left out silently and it exits 0.
/// `--json` prints `removed` and `not_found`, and for each identifier `alsoKnown` places
/// elsewhere, the identifier under that key (`"delivered": [...]`).
func report(removed: [String], asked: [String]?, json: Bool, what: String, ignoreMissing: Bool = false,
            missing refusal: (String) -> ChimeError,
            alsoKnown: (String) -> String? = { _ in nil }) throws {
  let missing = (asked ?? []).filter { !removed.contains($0) }
  if json {
    var object: [String: Any] = ["removed": removed, "not_found": missing]
    for id in missing {
      guard let key = alsoKnown(id) else { continue }
      object[key] = ((object[key] as? [String]) ?? []) + [id]
    }
    JSONOutput.print(object)
  } else {
    print(removed.isEmpty ? "nothing removed" : "removed \(removed.count) \(what): \(removed.joined(separator: ", "))")
  }
  guard !missing.isEmpty, !ignoreMissing else { return }
  for id in missing { report(refusal(id), json: false, status: 1) }
  throw ExitCode(1)
}
