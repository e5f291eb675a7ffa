// The system's SQLite (Debian: libsqlite3-dev; macOS: the SDK's), for PushStore's SQLite connections.
#include <sqlite3.h>
