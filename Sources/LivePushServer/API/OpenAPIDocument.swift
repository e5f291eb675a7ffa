/// The OpenAPI 3 description of the API, served at `/openapi.json`. Hand-written; a test checks that every
/// route of the router is described here.
enum OpenAPIDocument {
    static let json = #"""
{
  "openapi": "3.0.3",
  "info": {
    "title": "LivePush provider server",
    "version": "1.0.0",
    "description": "Registers iOS Live Activities and their push tokens, and keeps them up to date through APNs. Every request under /v1 needs 'Authorization: Bearer <API key>': app keys register, backend keys send and read. Dates are ISO 8601 strings or Unix seconds. Errors are 4xx with {\"error\":{\"field\",\"rule\",\"message\"}}."
  },
  "components": {
    "securitySchemes": {
      "appKey": {"type": "http", "scheme": "bearer", "description": "An API key of scope app."},
      "backendKey": {"type": "http", "scheme": "bearer", "description": "An API key of scope backend."}
    },
    "schemas": {
      "Error": {
        "type": "object", "required": ["error"],
        "properties": {"error": {"type": "object", "required": ["rule", "message"], "properties": {
          "field": {"type": "string", "nullable": true, "description": "The body field, path parameter or header at fault."},
          "rule": {"type": "string", "description": "The rule it broke (required, type, hex, date, scope, maxPayloadSize, exists, ...)."},
          "message": {"type": "string"}}}}
      },
      "Date": {"oneOf": [{"type": "string", "format": "date-time"}, {"type": "number", "description": "Unix seconds"}, {"type": "string", "pattern": "^[+-][0-9]+[smhd]$", "description": "relative to now: +30m, +2h, +45s, +1d, -5m"}]},
      "PushToStartTokenStored": {"type": "object", "properties": {
          "id": {"type": "string", "format": "uuid"}, "userId": {"type": "string"}, "deviceId": {"type": "string"},
          "bundleId": {"type": "string"}, "attributesType": {"type": "string"}, "environment": {"type": "string", "enum": ["sandbox", "production"]},
          "token": {"type": "string", "description": "shortened"}, "valid": {"type": "boolean"}, "updatedAt": {"type": "string", "format": "date-time"}}},
      "ActivityRegistration": {
        "type": "object", "required": ["activityId", "pushToken", "bundleId", "attributesType", "environment"],
        "properties": {
          "activityId": {"type": "string", "maxLength": 128},
          "pushToken": {"type": "string", "pattern": "^([0-9a-fA-F]{2})+$"},
          "bundleId": {"type": "string"},
          "attributesType": {"type": "string"},
          "environment": {"type": "string", "enum": ["sandbox", "production"]},
          "userId": {"type": "string"},
          "groups": {"type": "array", "items": {"type": "string"}, "maxItems": 32},
          "frequentPushesEnabled": {"type": "boolean"}
        }
      },
      "PushTokenRotation": {"type": "object", "required": ["pushToken"], "properties": {"pushToken": {"type": "string", "pattern": "^([0-9a-fA-F]{2})+$"}}},
      "PushToStartToken": {
        "type": "object", "required": ["userId", "deviceId", "bundleId", "attributesType", "environment", "token"],
        "properties": {
          "userId": {"type": "string"}, "deviceId": {"type": "string"}, "bundleId": {"type": "string"},
          "attributesType": {"type": "string"}, "environment": {"type": "string", "enum": ["sandbox", "production"]},
          "token": {"type": "string", "pattern": "^([0-9a-fA-F]{2})+$"}
        }
      },
      "EndedByApp": {"type": "object", "properties": {"dismissalDate": {"$ref": "#/components/schemas/Date"}}},
      "AlertText": {"oneOf": [{"type": "string"}, {"type": "object", "required": ["locKey"], "properties": {"locKey": {"type": "string"}, "locArgs": {"type": "array", "items": {"type": "string"}}}}]},
      "Alert": {"type": "object", "properties": {"title": {"$ref": "#/components/schemas/AlertText"}, "body": {"$ref": "#/components/schemas/AlertText"}, "sound": {"type": "string"}}},
      "Update": {"allOf": [{"$ref": "#/components/schemas/PushFields"}, {"type": "object", "required": ["contentState"]}]},
      "PushFields": {
        "type": "object",
        "properties": {
          "contentState": {"type": "object", "description": "Decodes into the app's ContentState; the whole payload must stay within 4096 bytes. Required, except on an end: without it the ended activity keeps showing its last state."},
          "priority": {"type": "integer", "enum": [5, 10]},
          "importance": {"type": "string", "enum": ["routine", "timeSensitive"], "description": "routine = priority 5 (coalesced while waiting), timeSensitive = priority 10. Default: routine."},
          "alert": {"$ref": "#/components/schemas/Alert"},
          "sound": {"type": "string"},
          "staleDate": {"$ref": "#/components/schemas/Date"},
          "relevanceScore": {"type": "number"},
          "expiration": {"$ref": "#/components/schemas/Date"},
          "collapseId": {"type": "string", "maxLength": 64}
        }
      },
      "End": {"allOf": [{"$ref": "#/components/schemas/PushFields"}, {"type": "object", "properties": {"dismissalDate": {"$ref": "#/components/schemas/Date"}}}]},
      "Start": {"allOf": [{"$ref": "#/components/schemas/Update"}, {"type": "object", "required": ["attributesType", "attributes", "alert"], "properties": {"attributesType": {"type": "string"}, "attributes": {"type": "object"}, "inputPushToken": {"type": "boolean", "description": "iOS 18+: the device reports the started activity's update token (input-push-token)."}}}]},
      "Accepted": {
        "type": "object",
        "properties": {
          "pushIds": {"type": "array", "items": {"type": "string", "format": "uuid"}},
          "coalesced": {"type": "array", "items": {"type": "object", "properties": {"replaced": {"type": "string", "format": "uuid"}, "by": {"type": "string", "format": "uuid"}}}},
          "downgraded": {"type": "array", "items": {"type": "object", "properties": {"pushId": {"type": "string", "format": "uuid"}, "reason": {"type": "string"}}}},
          "skipped": {"type": "array", "items": {"type": "object", "properties": {"activityId": {"type": "string"}, "pushToStartTokenId": {"type": "string", "format": "uuid"}, "reason": {"type": "string"}}}}
        }
      },
      "Activity": {
        "type": "object",
        "properties": {
          "activityId": {"type": "string"}, "pushToken": {"type": "string", "description": "shortened"},
          "bundleId": {"type": "string"}, "attributesType": {"type": "string"}, "environment": {"type": "string"},
          "userId": {"type": "string"}, "groups": {"type": "array", "items": {"type": "string"}},
          "frequentPushesEnabled": {"type": "boolean"}, "state": {"type": "string", "enum": ["active", "ended", "dismissed"]},
          "token": {"type": "object", "properties": {"valid": {"type": "boolean"}, "reason": {"type": "string"}, "at": {"type": "string", "format": "date-time"}}},
          "registeredAt": {"type": "string", "format": "date-time"}, "updatedAt": {"type": "string", "format": "date-time"},
          "startedAt": {"type": "string", "format": "date-time"}, "endedAt": {"type": "string", "format": "date-time"},
          "dismissalDate": {"type": "string", "format": "date-time"}, "lastContentState": {"type": "object"},
          "lastTimestamp": {"type": "string", "format": "date-time"}
        }
      },
      "ActivityDetail": {
        "type": "object",
        "properties": {
          "activity": {"$ref": "#/components/schemas/Activity"},
          "deliveries": {"type": "array", "items": {"type": "object", "properties": {
            "pushId": {"type": "string", "format": "uuid"}, "kind": {"type": "string", "enum": ["start", "update", "end"]},
            "acceptedAt": {"type": "string", "format": "date-time"}, "sentAt": {"type": "string", "format": "date-time"},
            "priority": {"type": "integer"}, "requestedPriority": {"type": "integer"}, "downgradeReason": {"type": "string"},
            "apnsId": {"type": "string"}, "status": {"type": "integer"},
            "outcome": {"type": "string", "enum": ["accepted", "rejected", "failed", "expired", "coalesced"]},
            "reason": {"type": "string"}, "attempts": {"type": "integer"}, "coalescedInto": {"type": "string", "format": "uuid"}}}},
          "pending": {"type": "array", "items": {"type": "object", "properties": {
            "pushId": {"type": "string", "format": "uuid"}, "kind": {"type": "string"}, "acceptedAt": {"type": "string", "format": "date-time"},
            "priority": {"type": "integer"}, "attempts": {"type": "integer"}, "nextAttemptAt": {"type": "string", "format": "date-time"},
            "lastError": {"type": "string"}}}}
        }
      }
    },
    "responses": {
      "Error": {"description": "Bad input, unknown key or wrong scope, unknown activity, conflict.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
      "Unavailable": {"description": "Storage unavailable: nothing was written; retry later.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
      "Accepted": {"description": "Written to the outbox; sent by the workers.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Accepted"}}}},
      "Activity": {"description": "The activity.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Activity"}}}}
    },
    "parameters": {
      "activityId": {"name": "activityId", "in": "path", "required": true, "schema": {"type": "string", "maxLength": 128}},
      "groupId": {"name": "groupId", "in": "path", "required": true, "schema": {"type": "string", "maxLength": 128}},
      "userId": {"name": "userId", "in": "path", "required": true, "schema": {"type": "string", "maxLength": 128}}
    }
  },
  "paths": {
    "/v1/activities": {
      "post": {"summary": "Register an activity (app)", "security": [{"appKey": []}],
        "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ActivityRegistration"}}}},
        "responses": {"201": {"$ref": "#/components/responses/Activity"}, "4XX": {"$ref": "#/components/responses/Error"}, "503": {"$ref": "#/components/responses/Unavailable"}}}
    },
    "/v1/activities/{activityId}": {
      "get": {"summary": "An activity with its delivery history (backend)", "security": [{"backendKey": []}],
        "parameters": [{"$ref": "#/components/parameters/activityId"}],
        "responses": {"200": {"description": "The activity", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ActivityDetail"}}}}, "4XX": {"$ref": "#/components/responses/Error"}, "503": {"$ref": "#/components/responses/Unavailable"}}}
    },
    "/v1/activities/{activityId}/push-token": {
      "put": {"summary": "Rotate the activity's push token; the old one is never used again; the current one given again is valid again (app)", "security": [{"appKey": []}],
        "parameters": [{"$ref": "#/components/parameters/activityId"}],
        "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/PushTokenRotation"}}}},
        "responses": {"200": {"$ref": "#/components/responses/Activity"}, "4XX": {"$ref": "#/components/responses/Error"}, "503": {"$ref": "#/components/responses/Unavailable"}}}
    },
    "/v1/activities/{activityId}/ended": {
      "post": {"summary": "The app reports its activity ended (app)", "security": [{"appKey": []}],
        "parameters": [{"$ref": "#/components/parameters/activityId"}],
        "requestBody": {"required": false, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/EndedByApp"}}}},
        "responses": {"200": {"$ref": "#/components/responses/Activity"}, "4XX": {"$ref": "#/components/responses/Error"}, "503": {"$ref": "#/components/responses/Unavailable"}}}
    },
    "/v1/activities/{activityId}/dismissed": {
      "post": {"summary": "The app reports its activity dismissed from the Lock Screen (app); no body or {}", "security": [{"appKey": []}],
        "parameters": [{"$ref": "#/components/parameters/activityId"}],
        "responses": {"200": {"$ref": "#/components/responses/Activity"}, "4XX": {"$ref": "#/components/responses/Error"}, "503": {"$ref": "#/components/responses/Unavailable"}}}
    },
    "/v1/activities/{activityId}/update": {
      "post": {"summary": "Update an activity (backend)", "security": [{"backendKey": []}],
        "parameters": [{"$ref": "#/components/parameters/activityId"}],
        "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Update"}}}},
        "responses": {"202": {"$ref": "#/components/responses/Accepted"}, "4XX": {"$ref": "#/components/responses/Error"}, "503": {"$ref": "#/components/responses/Unavailable"}}}
    },
    "/v1/activities/{activityId}/end": {
      "post": {"summary": "End an activity (backend)", "security": [{"backendKey": []}],
        "parameters": [{"$ref": "#/components/parameters/activityId"}],
        "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/End"}}}},
        "responses": {"202": {"$ref": "#/components/responses/Accepted"}, "4XX": {"$ref": "#/components/responses/Error"}, "503": {"$ref": "#/components/responses/Unavailable"}}}
    },
    "/v1/groups/{groupId}/update": {
      "post": {"summary": "Update every active activity of a group (backend)", "security": [{"backendKey": []}],
        "parameters": [{"$ref": "#/components/parameters/groupId"}],
        "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Update"}}}},
        "responses": {"202": {"$ref": "#/components/responses/Accepted"}, "4XX": {"$ref": "#/components/responses/Error"}, "503": {"$ref": "#/components/responses/Unavailable"}}}
    },
    "/v1/groups/{groupId}/end": {
      "post": {"summary": "End every active activity of a group (backend)", "security": [{"backendKey": []}],
        "parameters": [{"$ref": "#/components/parameters/groupId"}],
        "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/End"}}}},
        "responses": {"202": {"$ref": "#/components/responses/Accepted"}, "4XX": {"$ref": "#/components/responses/Error"}, "503": {"$ref": "#/components/responses/Unavailable"}}}
    },
    "/v1/users/{userId}/start": {
      "post": {"summary": "Start an activity on every device of a user by push-to-start (backend)", "security": [{"backendKey": []}],
        "parameters": [{"$ref": "#/components/parameters/userId"}],
        "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Start"}}}},
        "responses": {"202": {"$ref": "#/components/responses/Accepted"}, "4XX": {"$ref": "#/components/responses/Error"}, "503": {"$ref": "#/components/responses/Unavailable"}}}
    },
    "/v1/push-to-start-tokens": {
      "put": {"summary": "Store or replace a device's push-to-start token for an attributes type (app)", "security": [{"appKey": []}],
        "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/PushToStartToken"}}}},
        "responses": {"200": {"description": "The stored token (shortened) and its id.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/PushToStartTokenStored"}}}}, "4XX": {"$ref": "#/components/responses/Error"}, "503": {"$ref": "#/components/responses/Unavailable"}}}
    },
    "/health": {
      "get": {"summary": "Liveness and store check", "responses": {"200": {"description": "{\"status\":\"ok\",\"outboxDepth\":N}"}, "503": {"$ref": "#/components/responses/Error"}}}
    },
    "/metrics": {
      "get": {"summary": "Prometheus metrics", "responses": {"200": {"description": "Prometheus text exposition", "content": {"text/plain": {"schema": {"type": "string"}}}}}}
    },
    "/openapi.json": {
      "get": {"summary": "This document", "responses": {"200": {"description": "OpenAPI 3 JSON"}}}
    }
  }
}
"""#
}
