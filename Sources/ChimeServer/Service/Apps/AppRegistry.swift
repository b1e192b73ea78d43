import ChimeCore
import ChimeStore
import ChimeSystem

/// App layouts, sound lookup and categories. Directory checks run off the loop. Loop thread
/// only.
final class AppRegistry {
  typealias Reply<T> = ServiceContext.Reply<T>

  let context: ServiceContext
  /// Where default app layouts live (`<apps>/<id>/container`, `.../bundle`).
  let appsDirectory: String

  init(context: ServiceContext, appsDirectory: String) {
    self.context = context
    self.appsDirectory = appsDirectory
  }

  /// Records where `app` keeps its container, group containers and bundle. Empty container or
  /// bundle means the default under the apps directory. Every directory given must exist, be a
  /// directory and belong to the daemon's user (the only user it serves).
  func registerApp(app: String, container: String, groups: [String], bundle: String, displayName: String = "",
                   desktopEntry: String = "", reply: @escaping Reply<AppLayout>) {
    let defaults = AppLayout.defaults(for: app, appsDirectory: appsDirectory)
    var layout = AppLayout(appID: app, container: container.isEmpty ? defaults.container : container,
                           groupContainers: groups, bundle: bundle.isEmpty ? defaults.bundle : bundle,
                           displayName: displayName, desktopEntry: desktopEntry)
    do {
      try AppLayout.validateDesktop(displayName: displayName, desktopEntry: desktopEntry)
    } catch {
      return reply(.failure(error))
    }
    guard groups.count <= Limits.groupContainersMax else {
      reply(.failure(ChimeError(.tooManyGroupContainers, "at most \(Limits.groupContainersMax) group containers", field: "group_containers")))
      return
    }
    var given: [(String, String)] = []
    if !container.isEmpty { given.append((container, "container")) }
    for (i, group) in groups.enumerated() { given.append((group, "group_containers[\(i)]")) }
    if !bundle.isEmpty { given.append((bundle, "bundle")) }
    let now = context.clock.now()
    let directories = given
    context.loop.runBlocking({ () -> ChimeError? in
      for (path, field) in directories {
        if let problem = Self.directoryProblem(path) {
          return ChimeError(.invalidAppDirectory, "\(path) \(problem)", field: field)
        }
      }
      return nil
    }, then: { [self] problem in
      if let problem { return reply(.failure(problem)) }
      layout.registered = true
      context.writer.submit(.registerApp(layout: layout, at: now)) { result in
        reply(result.map { _ in layout })
      }
    })
  }

  /// Why `path` cannot be registered, or nil.
  private static func directoryProblem(_ path: String) -> String? {
    if let problem = FileSystem.problem(withAbsolutePath: path) { return problem }
    guard let st = FileSystem.status(path) else { return "does not exist" }
    guard st.isDirectory else { return "is not a directory" }
    let uid = ProcessEnvironment.userID
    guard st.ownerID == uid else { return "belongs to uid \(st.ownerID), not to chimed's user (uid \(uid))" }
    return nil
  }

  /// The app's registered layout, or its defaults (`registered` false).
  func app(app: String, reply: @escaping Reply<AppLayout>) {
    let database = context.database, appsDirectory = self.appsDirectory
    context.loop.runBlocking(catching: { () throws(ChimeError) in
      try database.app(app) ?? AppLayout.defaults(for: app, appsDirectory: appsDirectory)
    }, then: reply)
  }

  /// Every registered app. Any app may list them: layouts are paths of the same user.
  func apps(reply: @escaping Reply<[AppLayout]>) {
    context.read(reply) { (database) throws(ChimeError) in try database.apps() }
  }

  /// Every app chimed knows of, by identifier: registered ones with their layout, the others
  /// (with an authorization record, a pending request or a delivered notification) with the
  /// defaults, `registered` false.
  func knownApps(reply: @escaping Reply<[AppLayout]>) {
    let recorded = context.access.recordedApps, appsDirectory = self.appsDirectory
    context.read(reply) { (database) throws(ChimeError) in
      let registered = try database.apps()
      let byID = Dictionary(registered.map { ($0.appID, $0) }, uniquingKeysWith: { first, _ in first })
      // Chime's own prompts are not an app the user allows or denies.
      var ids = Set(recorded).union(try database.appsWithData()).union(byID.keys)
      ids.remove(AuthorizationPrompt.appID)
      return ids.sorted().map { byID[$0] ?? AppLayout.defaults(for: $0, appsDirectory: appsDirectory) }
    }
  }

  /// Where `name` would be found for `app` and what would play.
  func checkSound(app: String, name: String, reply: @escaping Reply<SoundCheck>) {
    do {
      try SoundName.validate(name, field: "name")
    } catch {
      return reply(.failure(error))
    }
    let database = context.database, appsDirectory = self.appsDirectory
    context.loop.runBlocking(catching: { () throws(ChimeError) in
      SoundResolver.check(name: name, layout: try database.app(app) ?? AppLayout.defaults(for: app, appsDirectory: appsDirectory))
    }, then: reply)
  }
}
