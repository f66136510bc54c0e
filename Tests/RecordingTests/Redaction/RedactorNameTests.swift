import Foundation
import Testing
import StubModel
@testable import Recording
import StubdTestTags

/// Which names hide their values: names read as words, a credential noun anywhere, a credential
/// kind as the last word. Socket-free; the journal and recording tests cover where it applies.
@Suite(.tags(.inMemory)) struct RedactorNameTests {
    static let secret = [
        "Authorization", "Cookie", "X-Api-Key", "x-api-key", "api_key", "apiKey", "APIKey", "apikey", "key", "KEY", "private_key",
        "access_token", "accessToken", "refresh_token", "id_token", "IDToken", "X-Auth-Token", "X-CSRF-Token", "tokens",
        "client_secret", "clientSecret", "secret_hint", "password", "new_password", "password_confirmation", "passwd", "db.pwd",
        "session", "session_id", "sessionId", "SessionID", "JSESSIONID", "PHPSESSID", "ASP.NET_SessionId", "connect.sid",
        "X-Amz-Signature", "basic_auth", "credentials", "aws_secret_access_key", "token",
    ]
    static let notSecret = [
        "token_type", "token_type_hint", "token_hint", "tokenHint", "expires_in", "refresh_token_expires_in", "keys_url", "key1",
        "monkey", "keyboard", "hotkey", "Keep-Alive", "session_state", "node_id", "client_id", "Content-Type", "User-Agent",
        "X-Request-Id", "sessions_url", "keyName", "", "_", "id",
        "Access-Control-Allow-Credentials", "access-control-allow-credentials", "Sec-WebSocket-Key", "Sec-WebSocket-Accept",
    ]

    @Test(arguments: secret) func secretNames(_ name: String) {
        #expect(Redactor().isSecret(name), "\(name) hides its value")
    }

    @Test(arguments: notSecret) func innocentNames(_ name: String) {
        #expect(!Redactor().isSecret(name), "\(name) keeps its value")
    }

    @Test func keptNamesAndTheOffSwitchWin() {
        #expect(!Redactor(keep: ["access_token"]).isSecret("Access_Token"))
        #expect(!Redactor.off.isSecret("password"))
    }

    @Test func wordsSplitAtSeparatorsAndHumps() {
        func words(_ name: String) -> [String] {
            var name = name
            return name.withUTF8 { bytes in
                var found: [String] = []
                Redactor.forEachWord(in: bytes) { found.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[$0]), as: UTF8.self)) }
                return found
            }
        }
        #expect(words("refreshToken") == ["refresh", "Token"])
        #expect(words("XAPIKey") == ["XAPI", "Key"])
        #expect(words("ASP.NET_SessionId") == ["ASP", "NET", "Session", "Id"])
        #expect(words("key1") == ["key1"])
        #expect(words("oauth2Token") == ["oauth2", "Token"])
        #expect(words("--a--") == ["a"])
    }
}

/// Values under secret names are replaced by kind: strings by the placeholder, a JWT by a JWT.
@Suite(.tags(.inMemory)) struct RedactorValueTests {
    @Test func valuesAreReplacedByKind() throws {
        let document = try JSONParser.parse(Array(#"""
            {"id_token": "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ1In0.c2ln", "access_token": "abc.def.ghi", "token_hint": "none",
             "expires_in": 3600, "password_set": false, "password": "", "credentials": {"user": "u", "retries": 2}}
            """#.utf8))
        let redacted = Redactor().json(document)
        #expect(redacted["id_token"] == .string(Redactor.jwtPlaceholder))
        #expect(redacted["access_token"] == .string(Redactor.placeholder), "three dotted parts are not enough: a JWT starts with a JSON object")
        #expect(redacted["token_hint"] == .string("none") && redacted["expires_in"] == .number(3600))
        #expect(redacted["password_set"] == .bool(false) && redacted["password"] == .string(""))
        #expect(redacted["credentials"]?["user"] == .string(Redactor.placeholder) && redacted["credentials"]?["retries"] == .number(2))
        // The placeholder is itself a JWT whose parts decode.
        let parts = Redactor.jwtPlaceholder.split(separator: ".")
        let header = Data(base64Encoded: String(parts[0]) + "=")
        #expect(parts.count == 3 && header.map { String(decoding: $0, as: UTF8.self) } == #"{"alg":"none","typ":"JWT"}"#)
    }
}
