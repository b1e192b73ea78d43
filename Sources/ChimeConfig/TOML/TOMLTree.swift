/// The tables of a document while it is read: TOML's rules on which table may be added to
/// where depend on how each table was made, which the finished `TOMLTable` no longer says.
final class TOMLNode {
  /// How a table came to be.
  enum Origin: Equatable {
    /// Named on the way to a header (`a` of `[a.b]`): a later `[a]` may still define it.
    case implicit
    /// Defined by its own `[header]` (or `[[header]]` element): never again.
    case header
    /// Made by a dotted key (`a.b = 1`) in the section or inline table `scope`: only more
    /// dotted keys of that same scope may add to it.
    case dotted(scope: Int)
  }

  enum Child {
    /// A finished value: scalars, arrays and inline tables, which nothing may add to.
    case value(TOMLValue, line: Int)
    case table(TOMLNode, line: Int)
    /// `[[name]]`: its tables, appended to in place (a document may hold thousands).
    case arrayOfTables(TOMLNodeList, line: Int)

    var line: Int {
      switch self {
      case .value(_, let line), .table(_, let line), .arrayOfTables(_, let line): return line
      }
    }

    var typeName: String {
      switch self {
      case .value(.table, _): return "inline table"
      case .value(let value, _): return value.typeName
      case .table: return "table"
      case .arrayOfTables: return "array of tables"
      }
    }
  }

  var origin: Origin
  private(set) var keys: [String] = []
  private(set) var children: [String: Child] = [:]

  init(_ origin: Origin) { self.origin = origin }

  subscript(key: String) -> Child? { children[key] }

  func set(_ key: String, _ child: Child) {
    if children.updateValue(child, forKey: key) == nil { keys.append(key) }
  }

  var table: TOMLTable {
    var table = TOMLTable()
    for key in keys {
      switch children[key]! {
      case .value(let value, let line):
        table.append(key, TOMLTable.Entry(value: value, line: line))
      case .table(let node, let line):
        table.append(key, TOMLTable.Entry(value: .table(node.table), line: line))
      case .arrayOfTables(let nodes, let line):
        table.append(key, TOMLTable.Entry(value: .array(nodes.nodes.map { .table($0.table) }), line: line))
      }
    }
    return table
  }
}

/// The tables of an array of tables, in order.
final class TOMLNodeList {
  var nodes: [TOMLNode]
  init(_ nodes: [TOMLNode]) { self.nodes = nodes }
}
