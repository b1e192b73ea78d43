import ChimeConfig
import Testing

/// The TOML reader, construct by construct (https://toml.io/en/v1.0.0), and each way a
/// document is refused, with the line and column.
@Suite struct TOMLParserTests {
  func parse(_ text: String) throws -> TOMLTable { try TOMLParser.parse(text) }

  func value(_ text: String) throws -> TOMLValue? { try parse("v = " + text)["v"] }

  /// The error for `text`, as "LINE:COLUMN: message"; nil when it parses.
  func refusal(_ text: String) -> TOMLError? {
    do throws(TOMLError) {
      _ = try TOMLParser.parse(text)
      return nil
    } catch {
      return error
    }
  }

  // MARK: Keys

  @Test func keysBareQuotedAndDotted() throws {
    let table = try parse("""
      bare_key-1 = 1
      1234 = 2
      "quoted key é" = 3
      'literal "key"' = 4
      "" = 5
      site."google.com" = true
      fruit . color = "yellow"
      3.14159 = "pi"
      """)
    #expect(table.keys == ["bare_key-1", "1234", "quoted key é", "literal \"key\"", "", "site", "fruit", "3"])
    #expect(table["site"] == .table(try parse("\"google.com\" = true")))
    #expect(table["fruit"] == .table(try parse("color = \"yellow\"")))
    #expect(table["3"] == .table(try parse("14159 = \"pi\"")))
    #expect(table.entries["fruit"]?.line == 7)
  }

  @Test func keyErrors() {
    #expect(refusal("= 1")?.message.hasPrefix("expected a key") == true)
    #expect(refusal("a b = 1")?.message == "expected '=' after the key a, found 'b'")
    #expect(refusal("a = 1\nb\n")?.line == 2)
    #expect(refusal("\"\"\"k\"\"\" = 1")?.message == "a key cannot be a multi-line string")
    #expect(refusal("a. = 1")?.message.hasPrefix("expected a key") == true)
    #expect(refusal("é = 1")?.message == "expected a key, found U+00E9")
    #expect(refusal("a =")?.message == "expected a value, found the end of the file")
    #expect(refusal("a = 1 b = 2")?.message == "expected the end of the line, found 'b'")
  }

  @Test func duplicateKeysAreRefused() {
    let duplicate = refusal("name = 1\n\nname = 2\n")
    #expect(duplicate?.line == 3 && duplicate?.column == 1)
    #expect(duplicate?.key == "name" && duplicate?.message == "duplicate key (first on line 1)")
    // The same key, bare and quoted.
    #expect(refusal("spelling = 1\n\"spelling\" = 2")?.key == "spelling")
    #expect(refusal("a.b = 1\na.b = 2")?.key == "a.b")
    #expect(refusal("a.b = 1\na = 2")?.message == "duplicate key (first on line 1)")
    #expect(refusal("a = 1\na.b = 2")?.message == "is an integer (line 1): a dotted key cannot add to it")
  }

  // MARK: Strings

  @Test func basicStringsAndEscapes() throws {
    #expect(try value(#""I'm a string. \"You can quote me\". Name\tJos\u00E9\nLocation\tSF.""#)
            == .string("I'm a string. \"You can quote me\". Name\tJosé\nLocation\tSF."))
    #expect(try value(#""\b\t\n\f\r\"\\ \u00e9 \U0001F600""#) == .string("\u{8}\t\n\u{C}\r\"\\ é 😀"))
    #expect(try value("\"tab\there\"") == .string("tab\there"))
    #expect(refusal(#"v = "\e""#)?.message.hasPrefix("invalid escape sequence \\e") == true)
    #expect(refusal(#"v = "\x41""#)?.message.hasPrefix("invalid escape sequence \\x") == true)
    #expect(refusal(#"v = "\u12""#)?.message == "\\u takes exactly 4 hexadecimal digits")
    #expect(refusal(#"v = "\uD800""#)?.message.hasPrefix("\\u names no Unicode scalar value") == true)
    #expect(refusal(#"v = "\U00110000""#)?.message.hasPrefix("\\U names no Unicode scalar value") == true)
    #expect(refusal("v = \"open")?.message == "unterminated string (no closing '\"')")
    #expect(refusal("v = \"open\nw = 1")?.message.hasPrefix("unterminated string (no closing '\"' on its line") == true)
    let control = refusal("v = \"a\u{1}b\"")
    #expect(control?.message == "control character U+0001 in a string: write it as an escape")
    #expect(control?.column == 7)
    #expect(refusal("v = \"a\u{7F}\"")?.message.hasPrefix("control character U+007F") == true)
  }

  @Test func multilineBasicStrings() throws {
    // The newline right after the opening quotes is dropped.
    #expect(try value("\"\"\"\nRoses are red\nViolets are blue\"\"\"") == .string("Roses are red\nViolets are blue"))
    // A line-ending backslash drops the newline and the whitespace that follows.
    let fox = "\"\"\"\nThe quick brown \\\n\n\n  fox jumps over \\\n    the lazy dog.\"\"\""
    #expect(try value(fox) == .string("The quick brown fox jumps over the lazy dog."))
    #expect(try value("\"\"\"\\   \n   x\"\"\"") == .string("x"), "spaces after the backslash")
    // Up to two quotes before the closing three; CRLF becomes LF.
    #expect(try value("\"\"\"Here are two quotation marks: \"\". Simple enough.\"\"\"")
            == .string("Here are two quotation marks: \"\". Simple enough."))
    #expect(try value("\"\"\"\"This,\" she said, \"is just a pointless statement.\"\"\"\"")
            == .string("\"This,\" she said, \"is just a pointless statement.\""))
    #expect(try value("\"\"\"a\r\nb\"\"\"") == .string("a\nb"))
    #expect(refusal("v = \"\"\"a\\ b\"\"\"")?.message.hasPrefix("invalid escape sequence") == true)
    #expect(try value("\"\"\"\"\"\"\"\"") == .string("\"\""), "two quotes, then the closing three")
    #expect(refusal("v = \"\"\"\"\"\"\"\"\"")?.message == "expected the end of the line, found '\"'")
    #expect(refusal("v = \"\"\"\nnever closed\n")?.message == "unterminated multi-line string (no closing \"\"\")")
    #expect(refusal("v = \"\"\"a\rb\"\"\"")?.message == "a carriage return must be followed by a newline")
  }

  @Test func literalStrings() throws {
    #expect(try value(#"'C:\Users\nodejs\templates'"#) == .string(#"C:\Users\nodejs\templates"#))
    #expect(try value(#"'<\i\c*\s*>'"#) == .string(#"<\i\c*\s*>"#))
    #expect(try value("'''\nThe first newline is\ntrimmed in raw strings.\n   All other whitespace\n   is preserved.\n'''")
            == .string("The first newline is\ntrimmed in raw strings.\n   All other whitespace\n   is preserved.\n"))
    #expect(try value("'''Here are fifteen quotation marks: \"\"\"\"\"\"\"\"\"\"\"\"\"\"\"'''")
            == .string("Here are fifteen quotation marks: \"\"\"\"\"\"\"\"\"\"\"\"\"\"\""))
    #expect(try value("''''That,' she said, 'is still pointless.''''") == .string("'That,' she said, 'is still pointless.'"))
    #expect(refusal("v = 'a\nb'")?.message.hasPrefix("unterminated string") == true)
    #expect(refusal("v = 'it's'")?.message == "expected the end of the line, found 's'")
    #expect(refusal("v = '''a\u{0}'''")?.message.hasPrefix("control character U+0000") == true)
  }

  // MARK: Numbers

  @Test func integers() throws {
    let cases: [(String, Int64)] = [
      ("+99", 99), ("42", 42), ("0", 0), ("-17", -17), ("-0", 0), ("+0", 0), ("1_000", 1000), ("5_349_221", 5_349_221),
      ("53_49_221", 5_349_221), ("1_2_3_4_5", 12345), ("0xDEADBEEF", 0xDEADBEEF), ("0xdeadbeef", 0xDEADBEEF),
      ("0xdead_beef", 0xDEADBEEF), ("0o01234567", 0o1234567), ("0o755", 0o755), ("0b11010110", 0b11010110),
      ("9223372036854775807", .max), ("-9223372036854775808", .min), ("0x7FFFFFFFFFFFFFFF", .max), ("0x00", 0),
    ]
    for (text, expected) in cases { #expect(try value(text) == .integer(expected), "\(text)") }
    let errors: [(String, String)] = [
      ("0123", "leading zeros are not allowed"), ("+0123", "leading zeros are not allowed"),
      ("1__2", "an underscore must stand between two digits"), ("1_", "an underscore must stand between two digits"),
      ("0x_1", "an underscore must stand between two digits"), ("+0x1", "a hexadecimal, octal or binary integer has no sign"),
      ("0xG", "'G' is not a base-16 digit"), ("0o8", "'8' is not a base-8 digit"), ("0b2", "'2' is not a base-2 digit"),
      ("0x", "expected digits"), ("9223372036854775808", "out of the range of a 64-bit integer"),
      ("-9223372036854775809", "out of the range of a 64-bit integer"), ("0x8000000000000000", "out of the range of a 64-bit integer"),
      ("1x", "unexpected 'x'"), ("0X1", "unexpected 'X'"),
    ]
    for (text, why) in errors { #expect(refusal("v = " + text)?.message == "invalid number \(text): \(why)", "\(text)") }
  }

  @Test func floats() throws {
    let cases: [(String, Double)] = [
      ("+1.0", 1), ("3.1415", 3.1415), ("-0.01", -0.01), ("5e+22", 5e22), ("1e06", 1e6), ("-2E-2", -0.02),
      ("6.626e-34", 6.626e-34), ("224_617.445_991_228", 224_617.445_991_228), ("1e1_0", 1e10), ("0e0", 0), ("0.0", 0),
      ("inf", .infinity), ("+inf", .infinity), ("-inf", -.infinity), ("1e400", .infinity),
    ]
    for (text, expected) in cases { #expect(try value(text) == .float(expected), "\(text)") }
    #expect(try value("-0.0").map { if case .float(let d) = $0 { d.sign == .minus && d == 0 } else { false } } == true)
    for text in ["nan", "+nan", "-nan"] {
      #expect(try value(text).map { if case .float(let d) = $0 { d.isNaN } else { false } } == true, "\(text)")
    }
    let errors: [(String, String)] = [
      (".7", "expected a value, found '.'"), ("7.", "invalid number 7.: expected digits after the decimal point"),
      ("3.e+20", "invalid number 3.e+20: expected digits after the decimal point"),
      ("1e", "invalid number 1e: expected digits in the exponent"), ("01.5", "invalid number 01.5: leading zeros are not allowed"),
      ("1._5", "invalid number 1._5: an underscore must stand between two digits"),
      ("1.5_", "invalid number 1.5_: an underscore must stand between two digits"),
      ("infinity", "invalid number infinity: expected a digit"), ("NaN", "expected a value, found 'N'"),
      ("1.2.3", "invalid number 1.2.3: unexpected '.'"),
    ]
    for (text, message) in errors { #expect(refusal("v = " + text)?.message == message, "\(text)") }
  }

  @Test func booleans() throws {
    #expect(try value("true") == .boolean(true))
    #expect(try value("false") == .boolean(false))
    #expect(refusal("v = True")?.message == "expected a value, found 'T'")
    #expect(refusal("v = tru")?.message.hasPrefix("expected a value, found 't' (true and false are lower case") == true)
    #expect(refusal("v = yes")?.message == "expected a value, found 'y'")
  }

  // MARK: Dates and times

  @Test func datesAndTimes() throws {
    let date = TOMLDate(year: 1979, month: 5, day: 27)
    #expect(try value("1979-05-27T07:32:00Z") == .offsetDateTime(date, TOMLTime(hour: 7, minute: 32, second: 0, nanosecond: 0), offsetMinutes: 0))
    #expect(try value("1979-05-27T00:32:00-07:00")
            == .offsetDateTime(date, TOMLTime(hour: 0, minute: 32, second: 0, nanosecond: 0), offsetMinutes: -420))
    #expect(try value("1979-05-27T00:32:00.999999+05:30")
            == .offsetDateTime(date, TOMLTime(hour: 0, minute: 32, second: 0, nanosecond: 999_999_000), offsetMinutes: 330))
    #expect(try value("1979-05-27 07:32:00z") == .offsetDateTime(date, TOMLTime(hour: 7, minute: 32, second: 0, nanosecond: 0), offsetMinutes: 0))
    #expect(try value("1979-05-27t07:32:00") == .localDateTime(date, TOMLTime(hour: 7, minute: 32, second: 0, nanosecond: 0)))
    #expect(try value("1979-05-27") == .localDate(date))
    #expect(try value("07:32:00") == .localTime(TOMLTime(hour: 7, minute: 32, second: 0, nanosecond: 0)))
    // Past nanoseconds the digits are dropped.
    #expect(try value("00:32:00.1234567891") == .localTime(TOMLTime(hour: 0, minute: 32, second: 0, nanosecond: 123_456_789)))
    #expect(try value("2024-02-29") == .localDate(TOMLDate(year: 2024, month: 2, day: 29)))
    #expect(try parse("d = 1979-05-27 # a date, then a comment")["d"] == .localDate(date))
    let errors: [(String, String)] = [
      ("2023-02-29", "invalid date: day 29 (this month has 28)"), ("1900-02-29", "invalid date: day 29 (this month has 28)"),
      ("1979-13-01", "invalid date: month 13 (01 to 12)"), ("1979-04-31", "invalid date: day 31 (this month has 30)"),
      ("1979-05-27T24:00:00", "invalid time: hour 00 to 23, minute and second 00 to 59"),
      ("1979-05-27T07:32:60", "invalid time: hour 00 to 23, minute and second 00 to 59"),
      ("07:32", "expected ':' in the time (seconds are required), found the end of the file"),
      ("1979-05-27T07:32:00.", "expected digits after the decimal point of the seconds"),
      ("1979-05-27T07:32:00+25:00", "invalid offset: hours 00 to 23, minutes 00 to 59"),
      ("1979-05-27T07:32:00+0500", "expected ':' in the offset, found '0'"),
      ("1979-5-27", "expected 2 digits for the month, found '5'"),
      ("1979-05-27T", "expected 2 digits for the hour, found the end of the file"),
      ("07:32:00Z", "expected the end of the line, found 'Z'"),
    ]
    for (text, message) in errors { #expect(refusal("v = " + text)?.message == message, "\(text)") }
  }

  // MARK: Arrays and inline tables

  @Test func arrays() throws {
    #expect(try value("[ 1, 2, 3 ]") == .array([.integer(1), .integer(2), .integer(3)]))
    #expect(try value("[ [ 1, 2 ], [\"a\", 'b'] ]") == .array([.array([.integer(1), .integer(2)]), .array([.string("a"), .string("b")])]))
    #expect(try value("[ 0.1, \"x\", { a = 1 } ]") == .array([.float(0.1), .string("x"), .table(try parse("a = 1"))]), "mixed types")
    #expect(try value("[\n  1, # one\n  2, # two\r\n]") == .array([.integer(1), .integer(2)]), "newlines, comments, trailing comma")
    #expect(try value("[]") == .array([]))
    #expect(refusal("v = [1 2]")?.message == "expected ',' or ']' in the array, found '2'")
    #expect(refusal("v = [1,,2]")?.message == "expected a value, found ','")
    #expect(refusal("v = [1, 2\n")?.message == "unterminated array (no ']' before the end of the file)")
    let deep = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
    #expect(refusal("v = " + deep)?.message == "arrays and inline tables nested more than 128 deep")
  }

  @Test func inlineTables() throws {
    let table = try parse("name = { first = \"Tom\", last = \"Preston-Werner\" }\npoint = { x = 1, y = 2 }\nanimal = { type.name = \"pug\" }")
    #expect(table["name"] == .table(try parse("first = \"Tom\"\nlast = \"Preston-Werner\"")))
    #expect(table["animal"] == .table(try parse("type.name = \"pug\"")))
    #expect(try value("{}") == .table(TOMLTable()))
    #expect(refusal("v = { a = 1, }")?.message == "an inline table cannot end with a comma")
    #expect(refusal("v = { a = 1,\n b = 2 }")?.message == "an inline table must be on one line (no newline before its '}')")
    #expect(refusal("v = { a = 1 # c\n}")?.message == "an inline table cannot hold a comment")
    #expect(refusal("v = { a = 1, a = 2 }")?.message == "duplicate key (first on line 1)")
    #expect(refusal("v = { a = 1 b = 2 }")?.message == "expected ',' or '}' in the inline table, found 'b'")
    // Inline tables are whole: neither a header nor a dotted key adds to one.
    #expect(refusal("[product]\ntype = { name = \"Nail\" }\ntype.edible = false")?.key == "product.type")
    #expect(refusal("[product]\ntype.name = \"Nail\"\ntype = { edible = false }")?.message == "duplicate key (first on line 2)")
    #expect(refusal("a = { b = 1 }\n[a.c]")?.message == "is an inline table (line 1): a header cannot add to it")
  }

  /// Keys make tables within tables as arrays and inline tables nest, and the finished tables
  /// are built and compared by recursion: a hostile file of deep keys is refused as deep arrays
  /// are, not read until the stack runs out.
  @Test func deepKeysAreRefused() throws {
    let deep = Array(repeating: "a", count: 100_000).joined(separator: ".")
    let header = refusal("x = 1\n[" + deep + "]")
    #expect(header?.message == "tables nested more than 128 keys deep" && header?.line == 2 && header?.column == 1)
    #expect(refusal("[[" + deep + "]]")?.message == "tables nested more than 128 keys deep")
    #expect(refusal(deep + " = 1")?.message == "tables nested more than 128 keys deep")
    #expect(refusal("v = { " + deep + " = 1 }")?.message == "tables nested more than 128 keys deep")
    // A section's keys and those of the inline tables around a key count together.
    let half = Array(repeating: "a", count: 64).joined(separator: ".")
    #expect(refusal("[" + half + "]\n" + half + ".b = 1")?.message == "tables nested more than 128 keys deep")
    #expect(refusal(half + " = { " + half + ".b = 1 }")?.message == "tables nested more than 128 keys deep")
    let inline = String(repeating: "a = { ", count: 100) + "a = 1" + String(repeating: " }", count: 100)
    #expect(refusal("[" + half + "]\n" + inline)?.message == "tables nested more than 128 keys deep")
    // 128 keys is fine.
    #expect(try parse("[" + half + "]\n" + half + " = 1").keys == ["a"])
  }

  // MARK: Tables

  @Test func tablesAndSubtables() throws {
    let table = try parse("""
      [table-1]
      key1 = "some string"

      [ dog . "tater.man" ]
      type.name = "pug"

      # [x] [x.y] [x.y.z] need not be given before [x.y.z.w]
      [x.y.z.w]
      [x]
      """)
    #expect(table.keys == ["table-1", "dog", "x"])
    #expect(table.entries["dog"]?.line == 4)
    #expect(table["dog"] == .table(try parse("\"tater.man\".type.name = \"pug\"")))
    #expect(table["x"] == .table(try parse("y.z.w = {}")))
    // Top-level keys before the first header belong to the root.
    #expect(try parse("a = 1\n[t]\nb = 2")["a"] == .integer(1))
  }

  @Test func tableRedefinitionsAreRefused() {
    let twice = refusal("[fruit]\napple = \"red\"\n\n[fruit]\norange = \"orange\"")
    #expect(twice?.line == 4 && twice?.key == "fruit" && twice?.message == "table defined twice (first on line 1)")
    #expect(refusal("[fruit]\napple = \"red\"\n[fruit.apple]")?.message
            == "is a string (line 2): [fruit.apple] cannot define it")
    // A table made by dotted keys is not defined again by a header, but takes subtables.
    #expect(refusal("[fruit]\napple.color = \"red\"\n[fruit.apple]")?.message
            == "table already defined by dotted keys (line 2): a header cannot define it again")
    #expect(refusal("[fruit]\napple.color = \"red\"\napple.taste.sweet = true\n[fruit.apple.texture]\nsmooth = true") == nil)
    // A table defined by a header takes no dotted keys from another section.
    #expect(refusal("[a.b]\nc = 1\n[a]\nb.d = 2")?.message == "table already defined (line 1): a dotted key cannot add to it here")
    #expect(refusal("[a.b.c]\n[a]\nb.d = 1") == nil, "b was only named on the way to a.b.c")
    #expect(refusal("[a]\n[a.b]\n[a]")?.key == "a")
    #expect(refusal("[]")?.message == "expected a key, found ']'")
    #expect(refusal("[a")?.message == "expected ']' to close the table header, found the end of the file")
    #expect(refusal("[a] b = 1")?.message == "expected the end of the line, found 'b'")
  }

  @Test func arraysOfTables() throws {
    let table = try parse("""
      [[products]]
      name = "Hammer"
      sku = 738594937

      [[products]]  # an empty table in the array

      [[products]]
      name = "Nail"
      color = "gray"

      [[fruits]]
      name = "apple"
      [fruits.physical]
      color = "red"
      [[fruits.varieties]]
      name = "red delicious"
      [[fruits.varieties]]
      name = "granny smith"
      [[fruits]]
      name = "banana"
      [[fruits.varieties]]
      name = "plantain"
      """)
    guard case .array(let products) = table["products"], case .array(let fruits) = table["fruits"] else {
      Issue.record("not arrays")
      return
    }
    #expect(products == [.table(try parse("name = \"Hammer\"\nsku = 738594937")), .table(TOMLTable()),
                         .table(try parse("name = \"Nail\"\ncolor = \"gray\""))])
    #expect(fruits.count == 2)
    #expect(fruits[1] == .table(try parse("name = \"banana\"\nvarieties = [{ name = \"plantain\" }]")))
    #expect(table.entries["fruits"]?.line == 11)
    #expect(refusal("[fruit.physical]\ncolor = \"red\"\n[[fruit]]")?.message
            == "is a table (line 1), not an array of tables: [[fruit]] cannot add to it")
    #expect(refusal("[[fruits]]\nname = \"apple\"\n[fruits]")?.message
            == "is an array of tables (line 1): [fruits] cannot define it")
    #expect(refusal("fruits = []\n[[fruits]]")?.message == "is an array (line 1), not an array of tables: [[fruits]] cannot add to it")
    #expect(refusal("[[a] ]")?.message == "expected ']]' to close the array-of-tables header, found a space")
  }

  // MARK: Whitespace, comments, newlines, positions

  @Test func commentsWhitespaceAndNewlines() throws {
    let table = try parse("# This is a full-line comment\r\nkey = \"value\"  # a comment at the end of a line\r\n\t \r\nanother = \"# not a comment\"\r\n")
    #expect(table["key"] == .string("value") && table["another"] == .string("# not a comment"))
    #expect(table.entries["another"]?.line == 4)
    #expect(try parse("").keys.isEmpty)
    #expect(try parse("# only a comment").keys.isEmpty)
    #expect(try parse("a = 1 # tab\tin a comment")["a"] == .integer(1))
    #expect(refusal("a = 1 # \u{1}")?.message == "control character U+0001 in a comment")
    #expect(refusal("a = 1\rb = 2")?.message == "expected the end of the line, found U+000D")
    #expect(refusal("a = 1\r")?.message == "expected the end of the line, found U+000D")
    // A byte order mark at the start is skipped (columns are counted without it); anywhere
    // else it is refused.
    #expect(try parse("\u{FEFF}a = 1\r\nb = 2")["b"] == .integer(2))
    #expect(try parse("\u{FEFF}").keys.isEmpty)
    let bom = refusal("\u{FEFF}a = x")
    #expect(bom?.line == 1 && bom?.column == 5)
    #expect(refusal("\u{FEFF}\u{FEFF}a = 1")?.message == "expected a key, found U+FEFF")
    #expect(refusal("a = 1\n\u{FEFF}b = 2")?.message == "expected a key, found U+FEFF")
    #expect(refusal("a = \u{FEFF}1")?.message == "expected a value, found U+FEFF")
  }

  @Test func errorsGiveLineAndColumnInCharacters() {
    let error = refusal("a = 1\n\"é日\" = tru\n")
    #expect(error?.line == 2 && error?.column == 8)
    #expect(error?.description.hasPrefix("2:8: expected a value") == true)
    let duplicate = refusal("x = 1\n  [t]\n  k = 1\n  k = 2")
    #expect(duplicate?.line == 4 && duplicate?.column == 3 && duplicate?.description == "4:3: t.k: duplicate key (first on line 3)")
  }

  /// The example document of the TOML 1.0 specification's introduction, as its text describes it.
  @Test func specificationExample() throws {
    let table = try parse("""
      # This is a TOML document

      title = "TOML Example"

      [owner]
      name = "Tom Preston-Werner"
      dob = 1979-05-27T07:32:00-08:00

      [database]
      enabled = true
      ports = [ 8000, 8001, 8002 ]
      data = [ ["delta", "phi"], [3.14] ]
      temp_targets = { cpu = 79.5, case = 72.0 }

      [servers]

      [servers.alpha]
      ip = "10.0.0.1"
      role = "frontend"

      [servers.beta]
      ip = "10.0.0.2"
      role = "backend"
      """)
    #expect(table.keys == ["title", "owner", "database", "servers"])
    #expect(table["owner"] == .table(try parse("name = \"Tom Preston-Werner\"\ndob = 1979-05-27T07:32:00-08:00")))
    guard case .table(let database) = table["database"], case .table(let servers) = table["servers"] else {
      Issue.record("not tables")
      return
    }
    #expect(database["ports"] == .array([.integer(8000), .integer(8001), .integer(8002)]))
    #expect(database["data"] == .array([.array([.string("delta"), .string("phi")]), .array([.float(3.14)])]))
    #expect(database["temp_targets"] == .table(try parse("cpu = 79.5\ncase = 72.0")))
    #expect(servers.keys == ["alpha", "beta"])
    #expect(servers.entries["beta"]?.line == 21)
  }
}
