import ChimeCore
import Testing

/// A payload that is not JSON is refused with the line and column where it stops being JSON,
/// and what was found there (the real mistakes: a missing comma, a trailing comma).
@Suite struct PushJSONErrorTests {
  func message(_ json: String) throws -> String {
    let error = try #require(throws: ChimeError.self) { try PushPayload.parse(Array(json.utf8)) }
    #expect(error.reason == "INVALID_PUSH_PAYLOAD")
    #expect(error.field == "payload")
    return error.message
  }

  @Test func aMissingCommaBetweenMembers() throws {
    // Apple's guide's kind of mistake: a member on the next line without the comma before it.
    let json = """
      {
          "aps" : {
              "alert" : "You got your emails."
              "badge" : 9
          }
      }
      """
    #expect(try message(json) == #"the payload is not JSON: line 4, column 9: expected ',' or '}' after the value of "alert", found '"'"#)
  }

  @Test func aTrailingCommaInAnObjectAndInAnArray() throws {
    #expect(try message(#"{"aps":{"alert":"Hi","badge":1,}}"#)
      == "the payload is not JSON: line 1, column 32: a trailing comma: expected another member after ',', found '}'")
    #expect(try message("{\"aps\":{\"alert\":{\"loc-key\":\"K\",\"loc-args\":[\"a\",\n\"b\",]}}}")
      == "the payload is not JSON: line 2, column 5: a trailing comma: expected another element after ',', found ']'")
  }

  @Test func whatWasFoundIsNamed() throws {
    #expect(try message("") == "the payload is not JSON: line 1, column 1: expected a value, found the end of the payload")
    #expect(try message(#"{"aps":{"alert":"Hi"}"#) == #"the payload is not JSON: line 1, column 22: expected ',' or '}' after the value of "aps", found the end of the payload"#)
    #expect(try message(#"{"aps":{'alert':1}}"#) == "the payload is not JSON: line 1, column 9: expected a member name in double quotes, found \"'\"")
    #expect(try message(#"{"aps":{"badge":01}}"#) == #"the payload is not JSON: line 1, column 18: expected ',' or '}' after the value of "badge", found '1'"#)
    #expect(try message(#"{"aps":{"sound":tru}}"#) == "the payload is not JSON: line 1, column 17: expected a value (true?), found 't'")
    #expect(try message(#"{"aps":{}} x"#) == "the payload is not JSON: line 1, column 12: expected the end of the payload after the JSON value, found 'x'")
    // Columns count characters, not bytes.
    #expect(try message(#"{"aps":{"alert":"éé" "x":1}}"#) == #"the payload is not JSON: line 1, column 22: expected ',' or '}' after the value of "alert", found '"'"#)
    #expect(try message("{\"aps\":{\"alert\":\"a\tb\"}}") == "the payload is not JSON: line 1, column 19: a control character inside a string (escape it), found a tab")
    #expect(try message("{\"aps\":\u{FEFF}{}}") == "the payload is not JSON: line 1, column 8: expected a value (an object, array, string, number, true, false or null), found '\u{FEFF}'")
  }

  @Test func valuesThatAreJSONStillParse() throws {
    let p = try PushPayload.parse(Array(#"{"aps":{"alert":"Hi","badge":1},"list":[1,2,{"a":[]}]}"#.utf8))
    #expect(p.content.body == "Hi" && p.content.badge == 1)
  }
}
