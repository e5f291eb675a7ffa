/// The OpenAPI 3.0 description of the API, served at `/openapi.json`: every rule the server enforces on a
/// request (fields, lengths, patterns, enums, dates, responses). Hand-written (apple's swift-openapi-generator
/// would not keep the error quality: it ignores minLength, maxLength and pattern and reports a typo as a
/// missing field). `ContractTests` holds it to the server: each request schema's fields equal the set its route
/// accepts (the `fields` of `Contract/RequestBodies.swift`) and each rule written here is refused as stated.
/// Kept in the binary rather than a resource file, so `livepush serve` needs no bundle next to it.
enum OpenAPIDocument {
    static let json = #"""
{
  "openapi": "3.0.3",
  "info": {
    "title": "LivePush provider server",
    "version": "1.0.0",
    "description": "Registers iOS Live Activities and their push tokens, and keeps them up to date through APNs. Every request under /v1 needs 'Authorization: Bearer <credential>'. Backend keys send, read and mint user tokens. Apps act for one user: with a user token the backend mints (POST /v1/users/{userId}/app-tokens), or, without accounts, with an installation token that the app key opens (POST /v1/installations); an app credential touches only its user's activities and push-to-start tokens: naming another userId is 403 otherUser, and another user's activity is answered exactly like a missing one (404 exists). User tokens expire (60 s to 7 days), installation tokens too (renewed by POST /v1/installations/{installationId}/token); revoking the key that minted a token, or POST /v1/users/{userId}/sign-out, withdraws it at once (401 revoked). User ids may not start with inst_ (installations' prefix). A development app key (--app-key) acts for any user. Each principal has a rate limit: 429 rateLimit with Retry-After. Request bodies are JSON objects of at most 65536 bytes (413 maxBodySize), UTF-8; each takes exactly the fields listed (any other field: 400 unknown, naming it); a field given as null counts as absent; strings are never empty. Lengths are in characters. Dates are Unix seconds, ISO 8601 or relative (+30m), from 2001-01-01T00:00:00Z to before 2100-01-01T00:00:00Z; an expiration at most 30 days ahead. Every refusal is a 4xx or 503 with {\"error\":{\"field\",\"rule\",\"message\"}}: an unknown path is 404 route, a known path with another method is 405 method with an Allow header, an unexpected failure is 503 (never a 500)."
  },
  "components": {
    "securitySchemes": {
      "appKey": {"type": "http", "scheme": "bearer", "bearerFormat": "JWT", "description": "An app credential: a user token (HS256 JWT from POST /v1/users/{userId}/app-tokens) or an installation token (from POST /v1/installations), acting for one user or installation; an app key of scope app (livepush keys create --scope app) only opens installations; a development key (--app-key) acts for any user."},
      "backendKey": {"type": "http", "scheme": "bearer", "description": "An API key of scope backend (livepush keys create --scope backend)."}
    },
    "schemas": {
      "Error": {
        "type": "object",
        "required": ["error"],
        "description": "Every refusal. 'field' names the body field (with its path: alert.body.locKey, groups[0]), path parameter or header at fault; 'rule' is the rule it broke; 'message' says what is accepted.",
        "properties": {
          "error": {
            "type": "object",
            "required": ["field", "rule", "message"],
            "properties": {
              "field": {
                "type": "string",
                "nullable": true,
                "description": "null when no single field is at fault (a body that is not JSON, an unknown route)."
              },
              "rule": {
                "type": "string",
                "description": "Body and path: unknown (a field the request does not take), required, type, object (not a JSON object), nonEmpty (empty string, or an alert without title, body or sound), maxLength (characters, counted after percent-decoding for path parameters), maxCount (too many array entries), maxBytes (collapseId over 64 UTF-8 bytes; any other string over 4 bytes per character of its maxLength), hex (not an even number of hex digits), oneOf (not one of the listed values), date (not a date), dateRange (outside the accepted range), future (expiration in the past), consistent (priority contradicts importance), duplicate (sound given twice), maxPayloadSize (the APNs payload would be over 4096 bytes), invalid (an id, a name or a value sent as an APNs header with a control or format character, a collapseId with a leading or trailing space), framing (a chunked body that is malformed), transferEncoding (a transfer coding other than chunked alone; the connection is closed), json, utf8, percentEncoding, serverEnvironment (a token of the other APNs environment). Credentials: required, bearer, apiKey, appToken, expired, revoked (401); scope, otherUser (a body naming another user), installerKey (an app key used for more than opening installations), appToken (a token opening an installation) (403); rateLimit (429, with Retry-After); addressLimit (429, with Retry-After: the client address made too many failed requests, answered before any credential is looked at). Idempotency-Key: idempotencyKey (400), inProgress (409), keyReused (422). Channels: exists, channelLimit, featureNotEnabled, deleted (409), apns, unsupported (502). Routes: route (404), method (405), exists (404: unknown activity, group or user), maxBodySize (413). State: active, validToken, conflict, taken (an activity id another user or installation registered), heldByAnotherUser (a push-to-start token another user holds) (409). Storage: unavailable (503)."
              },
              "message": {"type": "string", "description": "One sentence for a person: what was wrong and what is accepted."}
            }
          }
        },
        "example": {"error": {"field": "pushToken", "rule": "hex", "message": "'pushToken': ..."}}
      },
      "Id": {
        "type": "string",
        "minLength": 1,
        "maxLength": 128,
        "pattern": "^[^\\u0000-\\u001F\\u007F-\\u009F\\u00AD\\u0600-\\u0605\\u061C\\u06DD\\u070F\\u0890\\u0891\\u08E2\\u180E\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2064\\u2066-\\u206F\\uFEFF\\uFFF9-\\uFFFB]+$",
        "description": "An id: 1 to 128 characters (Unicode characters, not bytes), none of them a control character or a Unicode format character (category Cf, such as U+200B, U+202E, U+FEFF; the pattern lists those of the Basic Multilingual Plane), and at most 4 UTF-8 bytes per character (400 invalid, maxBytes).",
        "example": "rangers-1"
      },
      "BundleId": {
        "type": "string",
        "minLength": 1,
        "maxLength": 255,
        "pattern": "^[^\\u0000-\\u001F\\u007F-\\u009F\\u00AD\\u0600-\\u0605\\u061C\\u06DD\\u070F\\u0890\\u0891\\u08E2\\u180E\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2064\\u2066-\\u206F\\uFEFF\\uFFF9-\\uFFFB]+$",
        "description": "The app's bundle id: 1 to 255 characters, none of them a control character or a Unicode format character (category Cf, such as U+200B, U+202E, U+FEFF; the pattern lists those of the Basic Multilingual Plane), and at most 4 UTF-8 bytes per character (400 invalid, maxBytes).",
        "example": "com.example.rangers"
      },
      "AttributesType": {
        "type": "string",
        "minLength": 1,
        "maxLength": 128,
        "pattern": "^[^\\u0000-\\u001F\\u007F-\\u009F\\u00AD\\u0600-\\u0605\\u061C\\u06DD\\u070F\\u0890\\u0891\\u08E2\\u180E\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2064\\u2066-\\u206F\\uFEFF\\uFFF9-\\uFFFB]+$",
        "description": "The ActivityAttributes type name: 1 to 128 characters, none of them a control character or a Unicode format character (category Cf, such as U+200B, U+202E, U+FEFF; the pattern lists those of the Basic Multilingual Plane), and at most 4 UTF-8 bytes per character (400 invalid, maxBytes).",
        "example": "AdventureAttributes"
      },
      "DeviceToken": {
        "type": "string",
        "minLength": 1,
        "maxLength": 1024,
        "pattern": "^([0-9a-fA-F]{2})+$",
        "description": "A device token as hex digits: an even number, at most 1024 (upper case is accepted and stored in lower case). Anything else is 400 hex (or maxLength, nonEmpty).",
        "example": "8f3a1b2c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8"
      },
      "Environment": {
        "type": "string",
        "enum": ["sandbox", "production"],
        "example": "sandbox",
        "description": "The APNs environment of the token: sandbox (development builds) or production (TestFlight, App Store). A server configured for one environment refuses the other with 400 serverEnvironment."
      },
      "Date": {
        "description": "A date from 2001-01-01T00:00:00Z to before 2100-01-01T00:00:00Z (Unix 978307200 to 4102444800, not included), in one of four forms (400 date for another form, 400 dateRange outside the window).",
        "oneOf": [
          {"type": "number", "minimum": 978307200, "maximum": 4102444800, "exclusiveMaximum": true, "description": "Unix seconds (978307200 is 2001-01-01T00:00:00Z, 4102444800 is 2100-01-01T00:00:00Z)."},
          {
            "type": "string",
            "format": "date-time",
            "pattern": "^(?:(?:200[2-9]|20[1-8][0-9]|209[0-8])-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\\.[0-9]+)?(?:Z|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])|2001-(?:0[2-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\\.[0-9]+)?(?:Z|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])|2001-01-(?:0[2-9]|[12][0-9]|3[01])T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\\.[0-9]+)?(?:Z|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])|2001-01-01T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\\.[0-9]+)?(?:Z|[+-]00:00|-(?:[01][0-9]|2[0-3]):[0-5][0-9])|2099-(?:0[1-9]|1[01])-(?:0[1-9]|[12][0-9]|3[01])T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\\.[0-9]+)?(?:Z|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])|2099-12-(?:0[1-9]|[12][0-9]|30)T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\\.[0-9]+)?(?:Z|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])|2099-12-31T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\\.[0-9]+)?(?:Z|[+-]00:00|\\+(?:[01][0-9]|2[0-3]):[0-5][0-9]))$",
            "description": "ISO 8601 with Z or an offset, with or without fractional seconds: 2026-11-22T10:00:00Z, years 2001 to 2099. The window is on the moment: on 2001-01-01 an offset ahead of UTC, and on 2099-12-31 one behind it, can put the moment outside (400 dateRange), so the pattern leaves those out; so does it 2000-12-31 and 2100-01-01 written with an offset that brings the moment inside, which are accepted."
          },
          {"type": "string", "pattern": "^0*(?:9783072[0-9]{2}|978307[3-9][0-9]{2}|97830[89][0-9]{3}|9783[1-9][0-9]{4}|978[4-9][0-9]{5}|979[0-9]{6}|9[89][0-9]{7}|[1-3][0-9]{9}|40[0-9]{8}|410[01][0-9]{6}|4102[0-3][0-9]{5}|41024[0-3][0-9]{4}|410244[0-3][0-9]{3}|4102444[0-7][0-9]{2})$", "description": "Unix seconds as digits, leading zeros allowed: \"1685959200\", from \"978307200\" to \"4102444799\"."},
          {"type": "string", "pattern": "^[+-]0*(?:[0-9]{1,8}s|[0-9]{1,6}m|[0-9]{1,4}h|[0-9]{1,3}d)$", "description": "Relative to now: +30m, +2h, +45s, +1d, -5m; s (up to 8 digits), m (6), h (4), d (3): at most about 3.2 years either way, so inside the window. A larger amount is accepted too while the moment it names is inside the window (400 dateRange outside it)."}
        ],
        "example": "+30m"
      },
      "DismissalDate": {
        "description": "When the system removes the ended activity from the Lock Screen: a Date as above, except that any moment from 1970-01-01T00:00:00Z (Unix 0) is accepted: a past one means at once (400 date, 400 dateRange). The window ends before 2100-01-01T00:00:00Z as for every date.",
        "oneOf": [
          {"type": "number", "minimum": 0, "maximum": 4102444800, "exclusiveMaximum": true, "description": "Unix seconds; 0 (or any past moment) dismisses at once."},
          {"type": "string", "format": "date-time", "pattern": "^(?:(?:197[1-9]|19[89][0-9]|20[0-8][0-9]|209[0-8])-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\\.[0-9]+)?(?:Z|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])|1970-01-01T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\\.[0-9]+)?(?:Z|[+-]00:00|-(?:[01][0-9]|2[0-3]):[0-5][0-9])|1970-(?:0[2-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\\.[0-9]+)?(?:Z|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])|1970-01-(?:0[2-9]|[12][0-9]|3[01])T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\\.[0-9]+)?(?:Z|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])|2099-(?:0[1-9]|1[01])-(?:0[1-9]|[12][0-9]|3[01])T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\\.[0-9]+)?(?:Z|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])|2099-12-(?:0[1-9]|[12][0-9]|30)T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\\.[0-9]+)?(?:Z|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])|2099-12-31T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\\.[0-9]+)?(?:Z|[+-]00:00|\\+(?:[01][0-9]|2[0-3]):[0-5][0-9]))$", "description": "ISO 8601, years 1970 to 2099 (the offsets on the first and last day as for a Date)."},
          {"type": "string", "pattern": "^0*(?:[0-9]{1,9}|[1-3][0-9]{9}|40[0-9]{8}|410[01][0-9]{6}|4102[0-3][0-9]{5}|41024[0-3][0-9]{4}|410244[0-3][0-9]{3}|4102444[0-7][0-9]{2})$", "description": "Unix seconds as digits, from \"0\" to \"4102444799\"."},
          {"type": "string", "pattern": "^[+-]0*(?:[0-9]{1,8}s|[0-9]{1,6}m|[0-9]{1,4}h|[0-9]{1,3}d)$", "description": "Relative to now, as for a Date."}
        ],
        "example": "+15m"
      },
      "Expiration": {
        "description": "Until when APNs keeps trying to deliver the push: a moment in the future (400 future for now or earlier) and at most 30 days from now (400 dateRange): APNs keeps an undelivered push at most 30 days. Listed here in the relative form, whose every value is inside that window: +1 to +2592000 seconds, +1 to +43200 minutes, +1 to +720 hours, +1 to +30 days (leading zeros allowed). Unix seconds (a number or digits) and ISO 8601 are accepted too when they name a moment in the same window; they are not listed as forms because the window moves with now, which a schema cannot state. Default: none.",
        "oneOf": [
          {"type": "string", "pattern": "^\\+0*(?:(?:[1-9][0-9]{0,5}|1[0-9]{6}|2[0-4][0-9]{5}|25[0-8][0-9]{4}|259[01][0-9]{3}|2592000)s|(?:[1-9][0-9]{0,3}|[1-3][0-9]{4}|4[0-2][0-9]{3}|43[01][0-9]{2}|43200)m|(?:[1-9][0-9]?|[1-6][0-9]{2}|7[01][0-9]|720)h|(?:[1-9]|[12][0-9]|30)d)$"}
        ],
        "example": "+1h"
      },
      "ActivityRegistration": {
        "type": "object",
        "additionalProperties": false,
        "required": ["activityId", "pushToken", "bundleId", "attributesType", "environment"],
        "properties": {
          "activityId": {"$ref": "#/components/schemas/Id"},
          "pushToken": {"$ref": "#/components/schemas/DeviceToken"},
          "bundleId": {"$ref": "#/components/schemas/BundleId"},
          "attributesType": {"$ref": "#/components/schemas/AttributesType"},
          "environment": {"$ref": "#/components/schemas/Environment"},
          "userId": {"allOf": [{"$ref": "#/components/schemas/Id"}], "nullable": true, "description": "null counts as absent."},
          "groups": {
            "type": "array",
            "nullable": true,
            "maxItems": 32,
            "items": {"$ref": "#/components/schemas/Id"},
            "example": ["party-1"],
            "description": "At most 32 group ids of 1 to 128 characters each (an entry that is not is 400 with field groups[i])."
          },
          "frequentPushesEnabled": {"type": "boolean", "nullable": true, "example": false, "description": "ActivityAuthorizationInfo().frequentPushesEnabled. Default false (also for null)."}
        }
      },
      "PushTokenRotation": {
        "type": "object",
        "additionalProperties": false,
        "required": ["pushToken"],
        "properties": {"pushToken": {"$ref": "#/components/schemas/DeviceToken"}}
      },
      "PushToStartToken": {
        "type": "object",
        "additionalProperties": false,
        "required": ["deviceId", "bundleId", "attributesType", "environment", "token"],
        "properties": {
          "userId": {
            "allOf": [{"$ref": "#/components/schemas/Id"}],
            "nullable": true,
            "description": "Whose device it is. With an app token: its user (leave it out, or give the same id; another is 403 otherUser). Required with a development app key (400 required)."
          },
          "deviceId": {"$ref": "#/components/schemas/Id"},
          "bundleId": {"$ref": "#/components/schemas/BundleId"},
          "attributesType": {"$ref": "#/components/schemas/AttributesType"},
          "environment": {"$ref": "#/components/schemas/Environment"},
          "token": {"$ref": "#/components/schemas/DeviceToken"}
        }
      },
      "ChannelCreation": {
        "type": "object",
        "additionalProperties": false,
        "required": ["name", "bundleId", "storagePolicy"],
        "properties": {
          "name": {
            "allOf": [{"$ref": "#/components/schemas/Id"}],
            "description": "Ours: unique among the app's live channels (409 exists)."
          },
          "bundleId": {"$ref": "#/components/schemas/BundleId"},
          "storagePolicy": {
            "type": "integer", "enum": [0, 1], "example": 1,
            "description": "0: APNs stores no message (the higher publishing budget; broadcasts carry expiration 0). 1: APNs keeps the most recent message for at most 8 hours and gives it to activities that subscribe later. Cannot be changed (400 oneOf, 400 required)."
          },
          "groupId": {
            "allOf": [{"$ref": "#/components/schemas/Id"}],
            "nullable": true,
            "description": "A group whose updates and ends also go out through this channel (one broadcast per group request)."
          }
        }
      },
      "Channel": {
        "type": "object",
        "required": ["id", "name", "bundleId", "apnsChannelId", "storagePolicy", "createdAt"],
        "properties": {
          "id": {"type": "string", "format": "uuid"},
          "name": {"type": "string"},
          "bundleId": {"type": "string"},
          "apnsChannelId": {"type": "string", "description": "APNs' channel id: the app subscribes with pushType .channel(apnsChannelId); push-to-start payloads carry it as input-push-channel."},
          "storagePolicy": {"type": "integer"},
          "groupId": {"type": "string", "nullable": true},
          "createdAt": {"type": "string", "format": "date-time"},
          "deletedAt": {"type": "string", "format": "date-time", "nullable": true}
        }
      },
      "ChannelList": {
        "type": "object",
        "required": ["channels", "limit"],
        "properties": {
          "channels": {"type": "array", "items": {"$ref": "#/components/schemas/Channel"}},
          "limit": {"type": "integer", "description": "Channels an app may have per environment (10000); the server refuses a create past it with 409 channelLimit before asking APNs and logs a warning from 9000 on."}
        }
      },
      "ChannelDetail": {
        "type": "object",
        "required": ["channel", "deliveries"],
        "properties": {
          "channel": {"$ref": "#/components/schemas/Channel"},
          "deliveries": {"type": "array", "items": {"$ref": "#/components/schemas/Delivery"}}
        }
      },
      "AppTokenRequest": {
        "type": "object",
        "additionalProperties": false,
        "properties": {
          "ttlSeconds": {
            "type": "integer", "nullable": true, "minimum": 60, "maximum": 604800, "example": 3600,
            "description": "How long the token lives: 60 seconds to 7 days (400 range; not a whole number: 400 integer). Default: the server's appTokenLifetime (1 hour)."
          }
        },
        "description": "No body, {} or a lifetime."
      },
      "AppToken": {
        "type": "object",
        "required": ["token", "userId", "expiresAt"],
        "properties": {
          "token": {"type": "string", "description": "Send it as 'Authorization: Bearer <token>' on the app routes; it acts for userId only."},
          "userId": {"type": "string"},
          "expiresAt": {"type": "string", "format": "date-time"}
        }
      },
      "InstallationRequest": {
        "type": "object",
        "additionalProperties": false,
        "maxProperties": 0,
        "properties": {},
        "description": "No fields: send no body or {}."
      },
      "Installation": {
        "type": "object",
        "required": ["installationId", "token", "expiresAt"],
        "properties": {
          "installationId": {"type": "string", "example": "inst_3q2-7wEjQz6v1hQ9mK0b4A", "description": "inst_ and 22 base64url characters; the backend addresses it as a user id (POST /v1/users/{installationId}/start)."},
          "token": {"type": "string", "description": "Acts for the installation until expiresAt (the server's installationTokenLifetime, 30 days by default); renew it before then with POST /v1/installations/{installationId}/token. Revoking the app key that opened the installation, or POST /v1/users/{installationId}/sign-out, withdraws it at once. Keep it in the keychain."},
          "expiresAt": {"type": "string", "format": "date-time"}
        }
      },
      "SignOut": {
        "type": "object",
        "required": ["userId", "pushToStartTokensReleased"],
        "properties": {
          "userId": {"type": "string"},
          "pushToStartTokensReleased": {"type": "integer", "minimum": 0, "description": "How many push-to-start tokens of the user were deleted, so that the devices may store them for another user."}
        }
      },
      "ReleasedPushToStartTokens": {
        "type": "object",
        "required": ["deviceId", "released"],
        "properties": {
          "deviceId": {"type": "string"},
          "released": {"type": "integer", "minimum": 0}
        }
      },
      "EndedByApp": {
        "type": "object",
        "additionalProperties": false,
        "properties": {"dismissalDate": {"allOf": [{"$ref": "#/components/schemas/DismissalDate"}], "nullable": true, "description": "null counts as absent."}}
      },
      "DismissedByApp": {
        "type": "object",
        "additionalProperties": false,
        "maxProperties": 0,
        "properties": {},
        "description": "No fields: send no body or {}."
      },
      "ContentState": {
        "type": "object",
        "example": {"health": 0.8, "status": "on the trail"},
        "description": "Decodes into the app's ContentState. The whole APNs payload (content-state, alert, attributes) must stay within 4096 bytes: 400 maxPayloadSize."
      },
      "Priority": {
        "type": "integer",
        "enum": [5, 10],
        "example": 10,
        "description": "5 (power-aware) or 10 (now); must agree with importance when both are given (400 consistent). Default: from importance, else 5."
      },
      "Importance": {
        "type": "string",
        "enum": ["routine", "timeSensitive", "time-sensitive"],
        "example": "timeSensitive",
        "description": "routine = priority 5 (coalesced while waiting), timeSensitive (or time-sensitive) = priority 10. Default: routine."
      },
      "Sound": {
        "type": "string",
        "minLength": 1,
        "maxLength": 256,
        "description": "default, or a sound file in the app bundle: 1 to 256 characters."
      },
      "PlainText": {
        "type": "string",
        "minLength": 1,
        "maxLength": 4096,
        "description": "1 to 4096 characters (and within the 4096-byte payload)."
      },
      "LocalizedText": {
        "type": "object",
        "additionalProperties": false,
        "required": ["locKey"],
        "properties": {
          "locKey": {
            "type": "string",
            "minLength": 1,
            "maxLength": 1024,
            "description": "A key of the app's Localizable.strings: 1 to 1024 characters.",
            "example": "LOOT_FOUND"
          },
          "locArgs": {
            "type": "array",
            "nullable": true,
            "maxItems": 32,
            "items": {"type": "string", "minLength": 1, "maxLength": 1024},
            "example": ["Cake"],
            "description": "At most 32 arguments of 1 to 1024 characters each."
          }
        }
      },
      "AlertText": {"oneOf": [{"$ref": "#/components/schemas/PlainText"}, {"$ref": "#/components/schemas/LocalizedText"}]},
      "Alert": {
        "type": "object",
        "additionalProperties": false,
        "minProperties": 1,
        "anyOf": [
          {"required": ["title"], "properties": {"title": {"$ref": "#/components/schemas/AlertText"}}},
          {"required": ["body"], "properties": {"body": {"$ref": "#/components/schemas/AlertText"}}},
          {"required": ["sound"], "properties": {"sound": {"$ref": "#/components/schemas/Sound"}}}
        ],
        "description": "At least one of title, body and sound not null (400 nonEmpty). The sound goes here or in the top-level 'sound', not both (400 duplicate).",
        "properties": {
          "title": {"allOf": [{"$ref": "#/components/schemas/AlertText"}], "nullable": true},
          "body": {"allOf": [{"$ref": "#/components/schemas/AlertText"}], "nullable": true},
          "sound": {"allOf": [{"$ref": "#/components/schemas/Sound"}], "nullable": true}
        },
        "example": {"title": "Loot found", "body": {"locKey": "LOOT_FOUND", "locArgs": ["Cake"]}, "sound": "default"}
      },
      "Update": {
        "type": "object",
        "additionalProperties": false,
        "not": {"anyOf": [
          {"description": "sound and alert.sound are not both given (400 duplicate).", "required": ["sound", "alert"], "properties": {"alert": {"required": ["sound"]}}},
          {"description": "priority agrees with importance when both are given (400 consistent): not 5 with timeSensitive.", "required": ["priority", "importance"], "properties": {"priority": {"enum": [5]}, "importance": {"enum": ["timeSensitive", "time-sensitive"]}}},
          {"description": "Nor 10 with routine (400 consistent).", "required": ["priority", "importance"], "properties": {"priority": {"enum": [10]}, "importance": {"enum": ["routine"]}}}
        ]},
        "required": ["contentState"],
        "properties": {
          "contentState": {"$ref": "#/components/schemas/ContentState"},
          "alert": {"allOf": [{"$ref": "#/components/schemas/Alert"}], "nullable": true},
\#(pushFields)
        }
      },
      "End": {
        "type": "object",
        "additionalProperties": false,
        "not": {"anyOf": [
          {"description": "sound and alert.sound are not both given (400 duplicate).", "required": ["sound", "alert"], "properties": {"alert": {"required": ["sound"]}}},
          {"description": "priority agrees with importance when both are given (400 consistent): not 5 with timeSensitive.", "required": ["priority", "importance"], "properties": {"priority": {"enum": [5]}, "importance": {"enum": ["timeSensitive", "time-sensitive"]}}},
          {"description": "Nor 10 with routine (400 consistent).", "required": ["priority", "importance"], "properties": {"priority": {"enum": [10]}, "importance": {"enum": ["routine"]}}}
        ]},
        "description": "contentState is optional: without it (or with null) the ended activity keeps showing its last state.",
        "properties": {
          "contentState": {"allOf": [{"$ref": "#/components/schemas/ContentState"}], "nullable": true},
          "alert": {"allOf": [{"$ref": "#/components/schemas/Alert"}], "nullable": true},
\#(pushFields),
          "dismissalDate": {"allOf": [{"$ref": "#/components/schemas/DismissalDate"}], "nullable": true}
        }
      },
      "Start": {
        "type": "object",
        "additionalProperties": false,
        "not": {"anyOf": [
          {"description": "sound and alert.sound are not both given (400 duplicate).", "required": ["sound", "alert"], "properties": {"alert": {"required": ["sound"]}}},
          {"description": "priority agrees with importance when both are given (400 consistent): not 5 with timeSensitive.", "required": ["priority", "importance"], "properties": {"priority": {"enum": [5]}, "importance": {"enum": ["timeSensitive", "time-sensitive"]}}},
          {"description": "Nor 10 with routine (400 consistent).", "required": ["priority", "importance"], "properties": {"priority": {"enum": [10]}, "importance": {"enum": ["routine"]}}}
        ]},
        "required": ["contentState", "attributesType", "attributes", "alert"],
        "description": "alert is required and not null: the device drops a push-to-start without one.",
        "properties": {
          "contentState": {"$ref": "#/components/schemas/ContentState"},
          "alert": {"$ref": "#/components/schemas/Alert"},
\#(pushFields),
          "attributesType": {"$ref": "#/components/schemas/AttributesType"},
          "attributes": {"type": "object", "example": {"heroName": "Cake"}, "description": "The static ActivityAttributes as a JSON object."},
          "inputPushToken": {
            "type": "boolean",
            "nullable": true,
            "example": true,
            "description": "iOS 18+: the device reports the started activity's update token (input-push-token). Default false."
          },
          "inputPushChannel": {
            "type": "string", "nullable": true, "minLength": 1, "maxLength": 128, "format": "uuid",
            "description": "iOS 18+: the id of one of our channels (POST /v1/channels); the started activity subscribes to it (input-push-channel carries APNs' channel id). Unknown: 404 exists; deleted: 409 deleted; another app's channel: 400 bundleId."
          }
        }
      },
      "Activity": {
        "type": "object",
        "required": [
          "activityId",
          "pushToken",
          "bundleId",
          "attributesType",
          "environment",
          "groups",
          "frequentPushesEnabled",
          "state",
          "token",
          "registeredAt",
          "updatedAt",
          "startedAt"
        ],
        "properties": {
          "activityId": {"type": "string"},
          "pushToken": {"type": "string", "description": "shortened: the first and last 4 hex digits"},
          "bundleId": {"type": "string"},
          "attributesType": {"type": "string"},
          "environment": {"type": "string", "enum": ["sandbox", "production"]},
          "userId": {"type": "string"},
          "groups": {"type": "array", "items": {"type": "string"}},
          "frequentPushesEnabled": {"type": "boolean"},
          "state": {"type": "string", "enum": ["active", "ended", "dismissed"]},
          "token": {
            "type": "object",
            "required": ["valid"],
            "properties": {"valid": {"type": "boolean"}, "reason": {"type": "string"}, "at": {"type": "string", "format": "date-time"}}
          },
          "registeredAt": {"type": "string", "format": "date-time"},
          "updatedAt": {"type": "string", "format": "date-time"},
          "startedAt": {"type": "string", "format": "date-time"},
          "endedAt": {"type": "string", "format": "date-time"},
          "dismissalDate": {"type": "string", "format": "date-time"},
          "lastContentState": {"type": "object"},
          "lastTimestamp": {"type": "string", "format": "date-time"}
        }
      },
      "Delivery": {
        "type": "object",
        "required": ["pushId", "kind", "acceptedAt", "priority", "requestedPriority", "outcome", "attempts"],
        "properties": {
          "pushId": {"type": "string", "format": "uuid"},
          "kind": {"type": "string", "enum": ["start", "update", "end"]},
          "acceptedAt": {"type": "string", "format": "date-time"},
          "sentAt": {"type": "string", "format": "date-time"},
          "priority": {"type": "integer", "enum": [5, 10]},
          "requestedPriority": {"type": "integer", "enum": [5, 10]},
          "downgradeReason": {"type": "string"},
          "apnsId": {"type": "string"},
          "status": {"type": "integer"},
          "outcome": {"type": "string", "enum": ["accepted", "rejected", "failed", "expired", "coalesced"]},
          "reason": {"type": "string"},
          "attempts": {"type": "integer"},
          "coalescedInto": {"type": "string", "format": "uuid"},
          "sendId": {"type": "string", "format": "uuid", "description": "The group send the push belonged to (GET /v1/sends/{sendId})."}
        }
      },
      "Pending": {
        "type": "object",
        "required": ["pushId", "kind", "acceptedAt", "priority", "attempts", "nextAttemptAt"],
        "properties": {
          "pushId": {"type": "string", "format": "uuid"},
          "kind": {"type": "string", "enum": ["start", "update", "end"]},
          "acceptedAt": {"type": "string", "format": "date-time"},
          "priority": {"type": "integer", "enum": [5, 10]},
          "downgradeReason": {"type": "string"},
          "attempts": {"type": "integer"},
          "nextAttemptAt": {"type": "string", "format": "date-time"},
          "lastError": {"type": "string"}
        }
      },
      "ActivityDetail": {
        "type": "object",
        "required": ["activity", "deliveries", "pending"],
        "properties": {
          "activity": {"$ref": "#/components/schemas/Activity"},
          "deliveries": {"type": "array", "items": {"$ref": "#/components/schemas/Delivery"}, "description": "Newest first."},
          "pending": {"type": "array", "items": {"$ref": "#/components/schemas/Pending"}, "description": "Oldest first."}
        }
      },
      "PushToStartTokenStored": {
        "type": "object",
        "required": ["id", "userId", "deviceId", "bundleId", "attributesType", "environment", "token", "valid", "updatedAt"],
        "properties": {
          "id": {"type": "string", "format": "uuid"},
          "userId": {"type": "string"},
          "deviceId": {"type": "string"},
          "bundleId": {"type": "string"},
          "attributesType": {"type": "string"},
          "environment": {"type": "string", "enum": ["sandbox", "production"]},
          "token": {"type": "string", "description": "shortened"},
          "valid": {"type": "boolean"},
          "updatedAt": {"type": "string", "format": "date-time"}
        }
      },
      "Accepted": {
        "type": "object",
        "required": ["pushIds", "coalesced", "downgraded", "skipped"],
        "properties": {
          "pushIds": {
            "type": "array",
            "items": {"type": "string", "format": "uuid"},
            "description": "Lowercase; each is also the push's apns-id."
          },
          "coalesced": {
            "type": "array",
            "items": {
              "type": "object",
              "required": ["replaced", "by"],
              "properties": {"replaced": {"type": "string", "format": "uuid"}, "by": {"type": "string", "format": "uuid"}}
            }
          },
          "downgraded": {
            "type": "array",
            "items": {
              "type": "object",
              "required": ["pushId", "reason"],
              "properties": {"pushId": {"type": "string", "format": "uuid"}, "reason": {"type": "string"}}
            }
          },
          "skipped": {
            "type": "array",
            "items": {
              "type": "object",
              "required": ["reason"],
              "properties": {
                "activityId": {"type": "string"},
                "pushToStartTokenId": {"type": "string", "format": "uuid"},
                "reason": {"type": "string"}
              }
            }
          }
        }
      },
      "GroupSend": {
        "type": "object",
        "description": "A group send: one record when accepted, sent in pages of the group's members by the workers. The 202 answer carries every count at 0.",
        "required": ["sendId", "groupId", "kind", "state", "acceptedAt", "counts", "broadcastPushIds"],
        "properties": {
          "sendId": {"type": "string", "format": "uuid"},
          "groupId": {"type": "string"},
          "kind": {"type": "string", "enum": ["update", "end"]},
          "state": {"type": "string", "enum": ["accepted", "expanding", "sending", "finished"], "description": "accepted: no member handed out yet; expanding: members still being handed out; sending: all handed out, outcomes pending; finished: every push has its outcome."},
          "acceptedAt": {"type": "string", "format": "date-time"},
          "finishedAt": {"type": "string", "format": "date-time"},
          "counts": {
            "type": "object",
            "required": ["targeted", "sent", "failed", "downgraded", "coalesced", "skipped", "retrying", "pending"],
            "properties": {
              "targeted": {"type": "integer", "description": "Members handed out so far."},
              "sent": {"type": "integer", "description": "Accepted by APNs."},
              "failed": {"type": "integer", "description": "Refused by APNs, undeliverable or expired."},
              "downgraded": {"type": "integer", "description": "Sent at priority 5: the activity's hourly priority-10 budget was used."},
              "coalesced": {"type": "integer", "description": "Not sent: a push accepted later for the activity, or a newer routine update to the group, replaced it."},
              "skipped": {"type": "integer", "description": "Not sent: ended, dismissed or without a valid token when its page was sent."},
              "retrying": {"type": "integer", "description": "Waiting for another attempt."},
              "pending": {"type": "integer", "description": "Targeted and without an outcome yet (retrying included)."}
            }
          },
          "broadcastPushIds": {"type": "array", "items": {"type": "string", "format": "uuid"}, "description": "The broadcasts to the channels linked to the group."}
        }
      },
      "Health": {
        "type": "object",
        "required": ["status", "outboxDepth"],
        "properties": {"status": {"type": "string", "enum": ["ok"]}, "outboxDepth": {"type": "integer"}}
      }
    },
    "responses": {
      "BadRequest": {
        "description": "400: the body, a path parameter or a date is refused; 'field' and 'rule' say which and why. Nothing was written.",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
      },
      "Unauthorized": {
        "description": "401: no Authorization header (rule required), not 'Bearer <credential>' (bearer), an unknown or revoked key (apiKey), a token this server did not sign or that was changed (appToken), or an expired user token (expired).",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
      },
      "Forbidden": {
        "description": "403: scope (the credential is of the other scope: app credentials register, backend keys send and read), otherUser (an app credential naming another userId in a body), installerKey (an app key does more than open installations), appToken (an app token opening an installation).",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
      },
      "NotFound": {
        "description": "404 exists: the activity, group or user named in the path is not registered (or has no valid push-to-start token).",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
      },
      "Conflict": {
        "description": "409: the request contradicts the stored state (the push token is another activity's current token; the activity is not active or has no valid token), or a request with the same Idempotency-Key is still being answered (inProgress).",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
      },
      "ContentTooLarge": {
        "description": "413 maxBodySize: the body is over 65536 bytes.",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
      },
      "Unavailable": {
        "description": "503 unavailable: storage does not answer; nothing was written; retry later.",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
      },
      "TooManyRequests": {
        "description": "429 rateLimit: the principal (user, installation, app key or backend key) went over its rate limit; nothing was done. Retry after the Retry-After seconds.",
        "headers": {"Retry-After": {"schema": {"type": "integer", "minimum": 1}, "description": "Seconds until a request will be allowed."}},
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
      },
      "MethodNotAllowed": {
        "description": "405 method: the path exists with other methods, listed in Allow.",
        "headers": {"Allow": {"schema": {"type": "string"}, "description": "The methods the path takes: GET, PUT."}},
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
      },
      "BadGateway": {
        "description": "502: APNs refused a channel operation (rule apns, with its status and reason) or could not be reached; unsupported when the server's sender has no broadcast support. Nothing was stored.",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
      },
      "KeyReused": {
        "description": "422 keyReused: the Idempotency-Key was used within 24 hours for another request (another route or body). Nothing was sent.",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
      },
      "Accepted": {
        "description": "Written to the outbox; sent by the workers. A replay of an Idempotency-Key carries the header Idempotent-Replayed: true.",
        "headers": {"Idempotent-Replayed": {"schema": {"type": "string", "enum": ["true"]}, "description": "Present on the stored answer given again for an Idempotency-Key."}},
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Accepted"}}}
      },
      "Activity": {"description": "The activity.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Activity"}}}},
      "GroupSendAccepted": {
        "description": "Stored (durable): the workers send it in pages of the group's members; read its progress at GET /v1/sends/{sendId}. A replay of an Idempotency-Key carries the header Idempotent-Replayed: true.",
        "headers": {"Idempotent-Replayed": {"schema": {"type": "string", "enum": ["true"]}, "description": "Present on the stored answer given again for an Idempotency-Key."}},
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/GroupSend"}}}
      }
    },
    "parameters": {
      "sendId": {
        "name": "sendId",
        "in": "path",
        "required": true,
        "description": "The send id a group send answered (a UUID): 1 to 128 characters, counted after percent-decoding, at most 4 UTF-8 bytes per character (400 maxBytes), none of them a control character or a Unicode format character (category Cf); any other text names no send (404 exists). Over 128: 400 maxLength; a control character: 400 invalid; not valid percent-encoded UTF-8: 400 percentEncoding.",
        "schema": {"type": "string", "minLength": 1, "maxLength": 128, "pattern": "^[^\\u0000-\\u001F\\u007F-\\u009F\\u00AD\\u0600-\\u0605\\u061C\\u06DD\\u070F\\u0890\\u0891\\u08E2\\u180E\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2064\\u2066-\\u206F\\uFEFF\\uFFF9-\\uFFFB]+$"}
      },
      "channelId": {
        "name": "channelId",
        "in": "path",
        "required": true,
        "description": "The channel id POST /v1/channels answered (a UUID): 1 to 128 characters, counted after percent-decoding, at most 4 UTF-8 bytes per character (400 maxBytes), none of them a control character or a Unicode format character (category Cf) (U+0000 to U+001F, U+007F to U+009F); any other text names no channel (404 exists). Over 128: 400 maxLength; a control character: 400 invalid; not valid percent-encoded UTF-8: 400 percentEncoding.",
        "schema": {"type": "string", "minLength": 1, "maxLength": 128, "pattern": "^[^\\u0000-\\u001F\\u007F-\\u009F\\u00AD\\u0600-\\u0605\\u061C\\u06DD\\u070F\\u0890\\u0891\\u08E2\\u180E\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2064\\u2066-\\u206F\\uFEFF\\uFFF9-\\uFFFB]+$"}
      },
      "idempotencyKey": {
        "name": "Idempotency-Key",
        "in": "header",
        "required": false,
        "description": "Makes a retry safe: the same key with the same request (route and body) within 24 hours answers the first answer again (with Idempotent-Replayed: true) and sends nothing more; the same key with another request is 422 keyReused; while the first is still being answered, 409 inProgress. Keys are per credential; a refused request frees its key. 1 to 255 printable ASCII characters (400 idempotencyKey); a UUID is a good key.",
        "schema": {"type": "string", "minLength": 1, "maxLength": 255, "pattern": "^[ -~]+$"}
      },
      "activityId": {
        "name": "activityId",
        "in": "path",
        "required": true,
        "description": "The activity id: 1 to 128 characters, counted after percent-decoding (an id registered as café/1 is reached as caf%C3%A9%2F1), none of them a control character (U+0000 to U+001F, U+007F to U+009F) or a Unicode format character (category Cf, such as U+200B, U+202E, U+FEFF), and at most 4 UTF-8 bytes per character (400 maxBytes). Over 128: 400 maxLength; a control character: 400 invalid; not valid percent-encoded UTF-8: 400 percentEncoding.",
        "schema": {"type": "string", "minLength": 1, "maxLength": 128, "pattern": "^[^\\u0000-\\u001F\\u007F-\\u009F\\u00AD\\u0600-\\u0605\\u061C\\u06DD\\u070F\\u0890\\u0891\\u08E2\\u180E\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2064\\u2066-\\u206F\\uFEFF\\uFFF9-\\uFFFB]+$"}
      },
      "groupId": {
        "name": "groupId",
        "in": "path",
        "required": true,
        "description": "The group id: 1 to 128 characters, counted after percent-decoding (an id registered as café/1 is reached as caf%C3%A9%2F1), none of them a control character (U+0000 to U+001F, U+007F to U+009F) or a Unicode format character (category Cf, such as U+200B, U+202E, U+FEFF), and at most 4 UTF-8 bytes per character (400 maxBytes). Over 128: 400 maxLength; a control character: 400 invalid; not valid percent-encoded UTF-8: 400 percentEncoding.",
        "schema": {"type": "string", "minLength": 1, "maxLength": 128, "pattern": "^[^\\u0000-\\u001F\\u007F-\\u009F\\u00AD\\u0600-\\u0605\\u061C\\u06DD\\u070F\\u0890\\u0891\\u08E2\\u180E\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2064\\u2066-\\u206F\\uFEFF\\uFFF9-\\uFFFB]+$"}
      },
      "userId": {
        "name": "userId",
        "in": "path",
        "required": true,
        "description": "The user id: 1 to 128 characters, counted after percent-decoding (an id registered as café/1 is reached as caf%C3%A9%2F1), none of them a control character (U+0000 to U+001F, U+007F to U+009F) or a Unicode format character (category Cf, such as U+200B, U+202E, U+FEFF), and at most 4 UTF-8 bytes per character (400 maxBytes). Over 128: 400 maxLength; a control character: 400 invalid; not valid percent-encoded UTF-8: 400 percentEncoding.",
        "schema": {"type": "string", "minLength": 1, "maxLength": 128, "pattern": "^[^\\u0000-\\u001F\\u007F-\\u009F\\u00AD\\u0600-\\u0605\\u061C\\u06DD\\u070F\\u0890\\u0891\\u08E2\\u180E\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2064\\u2066-\\u206F\\uFEFF\\uFFF9-\\uFFFB]+$"}
      },
      "installationId": {
        "name": "installationId",
        "in": "path",
        "required": true,
        "description": "The installation id (inst_ and 22 base64url characters, as POST /v1/installations answered): 1 to 128 characters, counted after percent-decoding (an id registered as café/1 is reached as caf%C3%A9%2F1), none of them a control character (U+0000 to U+001F, U+007F to U+009F) or a Unicode format character (category Cf, such as U+200B, U+202E, U+FEFF), and at most 4 UTF-8 bytes per character (400 maxBytes). Over 128: 400 maxLength; a control character: 400 invalid; not valid percent-encoded UTF-8: 400 percentEncoding.",
        "schema": {"type": "string", "minLength": 1, "maxLength": 128, "pattern": "^[^\\u0000-\\u001F\\u007F-\\u009F\\u00AD\\u0600-\\u0605\\u061C\\u06DD\\u070F\\u0890\\u0891\\u08E2\\u180E\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2064\\u2066-\\u206F\\uFEFF\\uFFF9-\\uFFFB]+$"}
      },
      "deviceId": {
        "name": "deviceId",
        "in": "path",
        "required": true,
        "description": "The app's id for the device, as given when storing its push-to-start tokens: 1 to 128 characters, counted after percent-decoding (an id registered as café/1 is reached as caf%C3%A9%2F1), none of them a control character (U+0000 to U+001F, U+007F to U+009F) or a Unicode format character (category Cf, such as U+200B, U+202E, U+FEFF), and at most 4 UTF-8 bytes per character (400 maxBytes). Over 128: 400 maxLength; a control character: 400 invalid; not valid percent-encoded UTF-8: 400 percentEncoding.",
        "schema": {"type": "string", "minLength": 1, "maxLength": 128, "pattern": "^[^\\u0000-\\u001F\\u007F-\\u009F\\u00AD\\u0600-\\u0605\\u061C\\u06DD\\u070F\\u0890\\u0891\\u08E2\\u180E\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2064\\u2066-\\u206F\\uFEFF\\uFFF9-\\uFFFB]+$"}
      }
    }
  },
  "paths": {
    "/v1/activities": {
      "post": {
        "operationId": "registerActivity",
        "summary": "Register an activity's update token (app); again for the same activity updates it",
        "security": [{"appKey": []}],
        "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ActivityRegistration"}}}},
        "responses": {
          "201": {"$ref": "#/components/responses/Activity"},
          "400": {"$ref": "#/components/responses/BadRequest"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"},
          "429": {"$ref": "#/components/responses/TooManyRequests"},
          "409": {"$ref": "#/components/responses/Conflict"},
          "413": {"$ref": "#/components/responses/ContentTooLarge"},
          "503": {"$ref": "#/components/responses/Unavailable"}
        }
      }
    },
    "/v1/sends/{sendId}": {
      "get": {
        "operationId": "getGroupSend",
        "summary": "A group send's progress (backend)",
        "security": [{"backendKey": []}],
        "parameters": [{"$ref": "#/components/parameters/sendId"}],
        "responses": {
          "200": {
            "description": "The send and its counts so far.",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/GroupSend"}}}
          },
          "400": {"$ref": "#/components/responses/BadRequest"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"},
          "429": {"$ref": "#/components/responses/TooManyRequests"},
          "404": {"$ref": "#/components/responses/NotFound"},
          "503": {"$ref": "#/components/responses/Unavailable"}
        }
      }
    },
    "/v1/activities/{activityId}": {
      "get": {
        "operationId": "getActivity",
        "summary": "An activity with its delivery history (backend)",
        "security": [{"backendKey": []}],
        "parameters": [{"$ref": "#/components/parameters/activityId"}],
        "responses": {
          "200": {
            "description": "The activity, its deliveries and its pending pushes.",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ActivityDetail"}}}
          },
          "400": {"$ref": "#/components/responses/BadRequest"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"},
          "429": {"$ref": "#/components/responses/TooManyRequests"},
          "404": {"$ref": "#/components/responses/NotFound"},
          "503": {"$ref": "#/components/responses/Unavailable"}
        }
      }
    },
    "/v1/activities/{activityId}/push-token": {
      "put": {
        "operationId": "rotatePushToken",
        "summary": "Rotate the activity's push token; the old one is never used again; the current one given again is valid again (app)",
        "security": [{"appKey": []}],
        "parameters": [{"$ref": "#/components/parameters/activityId"}],
        "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/PushTokenRotation"}}}},
        "responses": {
          "200": {"$ref": "#/components/responses/Activity"},
          "400": {"$ref": "#/components/responses/BadRequest"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"},
          "429": {"$ref": "#/components/responses/TooManyRequests"},
          "404": {"$ref": "#/components/responses/NotFound"},
          "409": {"$ref": "#/components/responses/Conflict"},
          "413": {"$ref": "#/components/responses/ContentTooLarge"},
          "503": {"$ref": "#/components/responses/Unavailable"}
        }
      }
    },
    "/v1/activities/{activityId}/ended": {
      "post": {
        "operationId": "activityEnded",
        "summary": "The app reports its activity ended (app); no body, {} or a dismissal date",
        "security": [{"appKey": []}],
        "parameters": [{"$ref": "#/components/parameters/activityId"}],
        "requestBody": {"required": false, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/EndedByApp"}}}},
        "responses": {
          "200": {"$ref": "#/components/responses/Activity"},
          "400": {"$ref": "#/components/responses/BadRequest"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"},
          "429": {"$ref": "#/components/responses/TooManyRequests"},
          "404": {"$ref": "#/components/responses/NotFound"},
          "413": {"$ref": "#/components/responses/ContentTooLarge"},
          "503": {"$ref": "#/components/responses/Unavailable"}
        }
      }
    },
    "/v1/activities/{activityId}/dismissed": {
      "post": {
        "operationId": "activityDismissed",
        "summary": "The app reports its activity dismissed from the Lock Screen (app); no body or {}",
        "security": [{"appKey": []}],
        "parameters": [{"$ref": "#/components/parameters/activityId"}],
        "requestBody": {"required": false, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/DismissedByApp"}}}},
        "responses": {
          "200": {"$ref": "#/components/responses/Activity"},
          "400": {"$ref": "#/components/responses/BadRequest"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"},
          "429": {"$ref": "#/components/responses/TooManyRequests"},
          "404": {"$ref": "#/components/responses/NotFound"},
          "413": {"$ref": "#/components/responses/ContentTooLarge"},
          "503": {"$ref": "#/components/responses/Unavailable"}
        }
      }
    },
    "/v1/activities/{activityId}/update": {
      "post": {
        "operationId": "updateActivity",
        "summary": "Update an activity (backend)",
        "security": [{"backendKey": []}],
        "parameters": [{"$ref": "#/components/parameters/activityId"}, {"$ref": "#/components/parameters/idempotencyKey"}],
        "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Update"}}}},
        "responses": {
          "202": {"$ref": "#/components/responses/Accepted"},
          "400": {"$ref": "#/components/responses/BadRequest"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"},
          "429": {"$ref": "#/components/responses/TooManyRequests"},
          "404": {"$ref": "#/components/responses/NotFound"},
          "409": {"$ref": "#/components/responses/Conflict"},
          "422": {"$ref": "#/components/responses/KeyReused"},
          "413": {"$ref": "#/components/responses/ContentTooLarge"},
          "503": {"$ref": "#/components/responses/Unavailable"}
        }
      }
    },
    "/v1/activities/{activityId}/end": {
      "post": {
        "operationId": "endActivity",
        "summary": "End an activity (backend)",
        "security": [{"backendKey": []}],
        "parameters": [{"$ref": "#/components/parameters/activityId"}, {"$ref": "#/components/parameters/idempotencyKey"}],
        "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/End"}}}},
        "responses": {
          "202": {"$ref": "#/components/responses/Accepted"},
          "400": {"$ref": "#/components/responses/BadRequest"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"},
          "429": {"$ref": "#/components/responses/TooManyRequests"},
          "404": {"$ref": "#/components/responses/NotFound"},
          "409": {"$ref": "#/components/responses/Conflict"},
          "422": {"$ref": "#/components/responses/KeyReused"},
          "413": {"$ref": "#/components/responses/ContentTooLarge"},
          "503": {"$ref": "#/components/responses/Unavailable"}
        }
      }
    },
    "/v1/groups/{groupId}/update": {
      "post": {
        "operationId": "updateGroup",
        "summary": "Update every active activity of a group (backend): answered at once with a send id, sent in pages",
        "security": [{"backendKey": []}],
        "parameters": [{"$ref": "#/components/parameters/groupId"}, {"$ref": "#/components/parameters/idempotencyKey"}],
        "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Update"}}}},
        "responses": {
          "202": {"$ref": "#/components/responses/GroupSendAccepted"},
          "400": {"$ref": "#/components/responses/BadRequest"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"},
          "429": {"$ref": "#/components/responses/TooManyRequests"},
          "404": {"$ref": "#/components/responses/NotFound"},
          "409": {"$ref": "#/components/responses/Conflict"},
          "422": {"$ref": "#/components/responses/KeyReused"},
          "413": {"$ref": "#/components/responses/ContentTooLarge"},
          "503": {"$ref": "#/components/responses/Unavailable"}
        }
      }
    },
    "/v1/groups/{groupId}/end": {
      "post": {
        "operationId": "endGroup",
        "summary": "End every active activity of a group (backend): answered at once with a send id, sent in pages",
        "security": [{"backendKey": []}],
        "parameters": [{"$ref": "#/components/parameters/groupId"}, {"$ref": "#/components/parameters/idempotencyKey"}],
        "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/End"}}}},
        "responses": {
          "202": {"$ref": "#/components/responses/GroupSendAccepted"},
          "400": {"$ref": "#/components/responses/BadRequest"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"},
          "429": {"$ref": "#/components/responses/TooManyRequests"},
          "404": {"$ref": "#/components/responses/NotFound"},
          "409": {"$ref": "#/components/responses/Conflict"},
          "422": {"$ref": "#/components/responses/KeyReused"},
          "413": {"$ref": "#/components/responses/ContentTooLarge"},
          "503": {"$ref": "#/components/responses/Unavailable"}
        }
      }
    },
    "/v1/users/{userId}/start": {
      "post": {
        "operationId": "startForUser",
        "summary": "Start an activity on every device of a user by push-to-start (backend)",
        "security": [{"backendKey": []}],
        "parameters": [{"$ref": "#/components/parameters/userId"}, {"$ref": "#/components/parameters/idempotencyKey"}],
        "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Start"}}}},
        "responses": {
          "202": {"$ref": "#/components/responses/Accepted"},
          "400": {"$ref": "#/components/responses/BadRequest"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"},
          "429": {"$ref": "#/components/responses/TooManyRequests"},
          "404": {"$ref": "#/components/responses/NotFound"},
          "409": {"$ref": "#/components/responses/Conflict"},
          "422": {"$ref": "#/components/responses/KeyReused"},
          "413": {"$ref": "#/components/responses/ContentTooLarge"},
          "503": {"$ref": "#/components/responses/Unavailable"}
        }
      }
    },
    "/v1/users/{userId}/app-tokens": {
      "post": {
        "operationId": "mintAppToken",
        "summary": "Mint a user token: the backend vouches for its user, and the app acts with it for that user only (backend)",
        "security": [{"backendKey": []}],
        "parameters": [{"$ref": "#/components/parameters/userId"}],
        "requestBody": {"required": false, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/AppTokenRequest"}}}},
        "responses": {
          "201": {"description": "The token.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/AppToken"}}}},
          "400": {"$ref": "#/components/responses/BadRequest"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"},
          "429": {"$ref": "#/components/responses/TooManyRequests"},
          "413": {"$ref": "#/components/responses/ContentTooLarge"},
          "503": {"$ref": "#/components/responses/Unavailable"}
        }
      }
    },
    "/v1/installations": {
      "post": {
        "operationId": "openInstallation",
        "summary": "Open an installation, for apps without accounts: a new id and a token acting for it (app key)",
        "security": [{"appKey": []}],
        "requestBody": {"required": false, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/InstallationRequest"}}}},
        "responses": {
          "201": {"description": "The installation.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Installation"}}}},
          "400": {"$ref": "#/components/responses/BadRequest"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"},
          "429": {"$ref": "#/components/responses/TooManyRequests"},
          "413": {"$ref": "#/components/responses/ContentTooLarge"},
          "503": {"$ref": "#/components/responses/Unavailable"}
        }
      }
    },
    "/v1/installations/{installationId}/token": {
      "post": {
        "operationId": "renewInstallationToken",
        "summary": "Renew an installation's token before it expires, with that token: same installation, new expiry (app)",
        "security": [{"appKey": []}],
        "parameters": [{"$ref": "#/components/parameters/installationId"}],
        "requestBody": {"required": false, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/InstallationRequest"}}}},
        "responses": {
          "201": {"description": "The installation with its new token.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Installation"}}}},
          "400": {"$ref": "#/components/responses/BadRequest"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"},
          "404": {"$ref": "#/components/responses/NotFound"},
          "429": {"$ref": "#/components/responses/TooManyRequests"},
          "413": {"$ref": "#/components/responses/ContentTooLarge"},
          "503": {"$ref": "#/components/responses/Unavailable"}
        }
      }
    },
    "/v1/users/{userId}/sign-out": {
      "post": {
        "operationId": "signOutUser",
        "summary": "Withdraw every app token of one user (or installation) issued so far, and release its push-to-start tokens (backend)",
        "security": [{"backendKey": []}],
        "parameters": [{"$ref": "#/components/parameters/userId"}],
        "requestBody": {"required": false, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/InstallationRequest"}}}},
        "responses": {
          "200": {"description": "Signed out: earlier tokens get 401 revoked from now on, on every instance.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/SignOut"}}}},
          "400": {"$ref": "#/components/responses/BadRequest"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"},
          "429": {"$ref": "#/components/responses/TooManyRequests"},
          "413": {"$ref": "#/components/responses/ContentTooLarge"},
          "503": {"$ref": "#/components/responses/Unavailable"}
        }
      }
    },
    "/v1/channels": {
      "post": {
        "operationId": "createChannel",
        "summary": "Create a broadcast channel with APNs and keep it (backend)",
        "security": [{"backendKey": []}],
        "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ChannelCreation"}}}},
        "responses": {
          "201": {"description": "The channel.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Channel"}}}},
          "400": {"$ref": "#/components/responses/BadRequest"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"},
          "429": {"$ref": "#/components/responses/TooManyRequests"},
          "409": {"$ref": "#/components/responses/Conflict"},
          "413": {"$ref": "#/components/responses/ContentTooLarge"},
          "502": {"$ref": "#/components/responses/BadGateway"},
          "503": {"$ref": "#/components/responses/Unavailable"}
        }
      },
      "get": {
        "operationId": "listChannels",
        "summary": "The live channels, of one app with ?bundleId= (backend)",
        "security": [{"backendKey": []}],
        "parameters": [{"name": "bundleId", "in": "query", "required": false, "description": "Only this app's channels: 1 to 255 characters, none of them a control character (400 nonEmpty, maxLength, invalid). Left out: every app's.", "schema": {"type": "string", "minLength": 1, "maxLength": 255, "pattern": "^[^\\u0000-\\u001F\\u007F-\\u009F\\u00AD\\u0600-\\u0605\\u061C\\u06DD\\u070F\\u0890\\u0891\\u08E2\\u180E\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2064\\u2066-\\u206F\\uFEFF\\uFFF9-\\uFFFB]+$"}}],
        "responses": {
          "200": {"description": "The channels.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ChannelList"}}}},
          "400": {"$ref": "#/components/responses/BadRequest"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"},
          "429": {"$ref": "#/components/responses/TooManyRequests"},
          "503": {"$ref": "#/components/responses/Unavailable"}
        }
      }
    },
    "/v1/channels/{channelId}": {
      "get": {
        "operationId": "getChannel",
        "summary": "A channel with its newest broadcasts (backend); a deleted channel stays readable, with deletedAt, for its history",
        "security": [{"backendKey": []}],
        "parameters": [{"$ref": "#/components/parameters/channelId"}],
        "responses": {
          "200": {"description": "The channel and its deliveries.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ChannelDetail"}}}},
          "400": {"$ref": "#/components/responses/BadRequest"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"},
          "429": {"$ref": "#/components/responses/TooManyRequests"},
          "404": {"$ref": "#/components/responses/NotFound"},
          "503": {"$ref": "#/components/responses/Unavailable"}
        }
      },
      "delete": {
        "operationId": "deleteChannel",
        "summary": "Delete the channel with APNs; it takes no more broadcasts (backend)",
        "security": [{"backendKey": []}],
        "parameters": [{"$ref": "#/components/parameters/channelId"}],
        "responses": {
          "200": {"description": "The deleted channel.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Channel"}}}},
          "400": {"$ref": "#/components/responses/BadRequest"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"},
          "429": {"$ref": "#/components/responses/TooManyRequests"},
          "404": {"$ref": "#/components/responses/NotFound"},
          "502": {"$ref": "#/components/responses/BadGateway"},
          "503": {"$ref": "#/components/responses/Unavailable"}
        }
      }
    },
    "/v1/channels/{channelId}/update": {
      "post": {
        "operationId": "updateChannel",
        "summary": "Update every activity subscribed to the channel with one broadcast, through the outbox (backend)",
        "security": [{"backendKey": []}],
        "parameters": [{"$ref": "#/components/parameters/channelId"}, {"$ref": "#/components/parameters/idempotencyKey"}],
        "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Update"}}}},
        "responses": {
          "202": {"$ref": "#/components/responses/Accepted"},
          "400": {"$ref": "#/components/responses/BadRequest"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"},
          "429": {"$ref": "#/components/responses/TooManyRequests"},
          "404": {"$ref": "#/components/responses/NotFound"},
          "409": {"$ref": "#/components/responses/Conflict"},
          "422": {"$ref": "#/components/responses/KeyReused"},
          "413": {"$ref": "#/components/responses/ContentTooLarge"},
          "503": {"$ref": "#/components/responses/Unavailable"}
        }
      }
    },
    "/v1/channels/{channelId}/end": {
      "post": {
        "operationId": "endChannel",
        "summary": "End every activity subscribed to the channel with one broadcast, through the outbox (backend)",
        "security": [{"backendKey": []}],
        "parameters": [{"$ref": "#/components/parameters/channelId"}, {"$ref": "#/components/parameters/idempotencyKey"}],
        "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/End"}}}},
        "responses": {
          "202": {"$ref": "#/components/responses/Accepted"},
          "400": {"$ref": "#/components/responses/BadRequest"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"},
          "429": {"$ref": "#/components/responses/TooManyRequests"},
          "404": {"$ref": "#/components/responses/NotFound"},
          "409": {"$ref": "#/components/responses/Conflict"},
          "422": {"$ref": "#/components/responses/KeyReused"},
          "413": {"$ref": "#/components/responses/ContentTooLarge"},
          "503": {"$ref": "#/components/responses/Unavailable"}
        }
      }
    },
    "/v1/push-to-start-tokens": {
      "put": {
        "operationId": "storePushToStartToken",
        "summary": "Store or replace a device's push-to-start token for an attributes type (app)",
        "security": [{"appKey": []}],
        "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/PushToStartToken"}}}},
        "responses": {
          "200": {
            "description": "The stored token (shortened) and its id.",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/PushToStartTokenStored"}}}
          },
          "400": {"$ref": "#/components/responses/BadRequest"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"},
          "409": {"$ref": "#/components/responses/Conflict"},
          "429": {"$ref": "#/components/responses/TooManyRequests"},
          "413": {"$ref": "#/components/responses/ContentTooLarge"},
          "503": {"$ref": "#/components/responses/Unavailable"}
        }
      }
    },
    "/v1/push-to-start-tokens/{deviceId}": {
      "delete": {
        "operationId": "releasePushToStartTokens",
        "summary": "Release the user's push-to-start tokens of one device, when the app signs out or the device changes hands (app)",
        "security": [{"appKey": []}],
        "parameters": [{"$ref": "#/components/parameters/deviceId"}],
        "responses": {
          "200": {"description": "How many were released (0 when none were stored).", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ReleasedPushToStartTokens"}}}},
          "400": {"$ref": "#/components/responses/BadRequest"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"},
          "429": {"$ref": "#/components/responses/TooManyRequests"},
          "503": {"$ref": "#/components/responses/Unavailable"}
        }
      }
    },
    "/health": {
      "get": {
        "operationId": "health",
        "summary": "Liveness and store check",
        "responses": {
          "200": {"description": "The store answers.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Health"}}}},
          "503": {"$ref": "#/components/responses/Unavailable"}
        }
      }
    },
    "/metrics": {
      "get": {
        "operationId": "metrics",
        "summary": "Prometheus metrics",
        "responses": {"200": {"description": "Prometheus text exposition", "content": {"text/plain": {"schema": {"type": "string"}}}}}
      }
    },
    "/openapi.json": {
      "get": {
        "operationId": "openAPI",
        "summary": "This document",
        "responses": {"200": {"description": "OpenAPI 3.0 JSON", "content": {"application/json": {"schema": {"type": "object"}}}}}
      }
    }
  }
}
"""#

    /// The fields an update, an end and a start share (each schema is flat: additionalProperties false
    /// does not combine with allOf).
    private static let pushFields = #"""
          "priority": {"allOf": [{"$ref": "#/components/schemas/Priority"}], "nullable": true},
          "importance": {"allOf": [{"$ref": "#/components/schemas/Importance"}], "nullable": true},
          "sound": {
            "allOf": [{"$ref": "#/components/schemas/Sound"}],
            "nullable": true,
            "description": "The alert's sound; an alternative to alert.sound (not both: 400 duplicate)."
          },
          "staleDate": {"allOf": [{"$ref": "#/components/schemas/Date"}], "nullable": true},
          "relevanceScore": {"type": "number", "nullable": true, "example": 50, "description": "A finite number; the highest score is shown first."},
          "expiration": {"allOf": [{"$ref": "#/components/schemas/Expiration"}], "nullable": true},
          "collapseId": {
            "type": "string",
            "nullable": true,
            "minLength": 1,
            "maxLength": 64,
            "pattern": "^[^ \\u0000-\\u001F\\u007F-\\u009F\\u00AD\\u0600-\\u0605\\u061C\\u06DD\\u070F\\u0890\\u0891\\u08E2\\u180E\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2064\\u2066-\\u206F\\uFEFF\\uFFF9-\\uFFFB]([^\\u0000-\\u001F\\u007F-\\u009F\\u00AD\\u0600-\\u0605\\u061C\\u06DD\\u070F\\u0890\\u0891\\u08E2\\u180E\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2064\\u2066-\\u206F\\uFEFF\\uFFF9-\\uFFFB]*[^ \\u0000-\\u001F\\u007F-\\u009F\\u00AD\\u0600-\\u0605\\u061C\\u06DD\\u070F\\u0890\\u0891\\u08E2\\u180E\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2064\\u2066-\\u206F\\uFEFF\\uFFF9-\\uFFFB])?$",
            "description": "1 to 64 characters and at most 64 UTF-8 bytes (400 maxBytes). Sent as the apns-collapse-id header: no control or format character and no leading or trailing space (400 invalid).",
            "example": "loot"
          }
"""#
}
