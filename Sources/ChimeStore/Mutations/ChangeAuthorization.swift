public import ChimeCore

/// The user's change of an app's authorization (`SetAppSettings`, the answer to an "Allow
/// notifications?" prompt): records it as `SetAuthorization` does and, when the status
/// changed, appends an `.authorizationChanged` event for the app whose note is the new
/// status's name, so an app that stopped waiting for the answer learns it.
public struct ChangeAuthorization: Mutation {
  public var change: SetAuthorization
  public var app: String { change.app }

  public init(app: String, status: AuthorizationStatus, granted: AuthorizationOptions?, at: Instant) {
    change = SetAuthorization(app: app, status: status, granted: granted, firstDecision: false, at: at)
  }

  public struct Outcome: MutationOutcome {
    /// The record as stored afterwards.
    public var record: AppAuthorization
    /// The status before the change.
    public var previous: AuthorizationStatus
    public var events: [Event] = []
    public var discardedFiles: [String] { [] }
  }

  public func apply(in t: WriteTransaction) throws -> Outcome {
    guard !app.isEmpty else { throw ChimeError(.invalidAppID, "app id is empty", field: "app_id") }
    let previous = try ChimeDatabase.authorization(app, db: t.db).status
    let record = try change.apply(in: t)
    var outcome = Outcome(record: record, previous: previous)
    if record.status != previous {
      let event = Event(at: change.at, kind: .authorizationChanged, note: record.status.name)
      outcome.events.append(try t.append(event, app: app))
    }
    return outcome
  }
}
