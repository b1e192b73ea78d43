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
      if !missing.isEmpty {
        deliveredIDs = Set(try await client.allDelivered().map(\.request.identifier)).intersection(missing)
      }
      report(removed: removed, asked: all ? nil : identifiers, json: options.json, what: "pending", delivered: deliveredIDs,
             hint: { "\($0) is not pending: it was delivered (remove it with: chime delivered --remove \($0))" })
      if !missing.isEmpty && !ignoreMissing { throw ExitCode(1) }
    }
  }
}

/// Prints what a remove did. Identifiers asked for and not removed are listed as not found
/// (`hint` says more for those in `delivered`); the caller decides the exit status.
func report(removed: [String], asked: [String]?, json: Bool, what: String, delivered: Set<String> = [],
            otherKey: String = "delivered", hint: (String) -> String = { "not found: \($0)" }) {
  let missing = (asked ?? []).filter { !removed.contains($0) }
  if json {
    var object: [String: Any] = ["removed": removed, "not_found": missing]
    if !delivered.isEmpty { object[otherKey] = missing.filter(delivered.contains) }
    JSONOutput.print(object)
    return
  }
  print(removed.isEmpty ? "nothing removed" : "removed \(removed.count) \(what): \(removed.joined(separator: ", "))")
  for id in missing {
    if delivered.contains(id) { printError("chime: \(hint(id))") } else { printError("chime: not found: \(id) (no \(what) notification has this identifier)") }
  }
}
