// The client's operations take and return the contract's types, generated apart into LivePushAPITypes (the
// server compiles those alone): `import LivePushAPIClient` brings both, as when one module held them.
@_exported import LivePushAPITypes
