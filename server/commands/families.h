#pragma once

namespace kv {

class CommandRegistry;

// Each command family registers its table entries here; one family per file.
void RegisterConnectionFamily(CommandRegistry& registry);
void RegisterStringFamily(CommandRegistry& registry);
void RegisterListFamily(CommandRegistry& registry);
void RegisterBitmapFamily(CommandRegistry& registry);
void RegisterGenericFamily(CommandRegistry& registry);
void RegisterKeyspaceFamily(CommandRegistry& registry);
void RegisterServerFamily(CommandRegistry& registry);
void RegisterIntrospectionFamily(CommandRegistry& registry);
void RegisterClientFamily(CommandRegistry& registry);
void RegisterDebugFamily(CommandRegistry& registry);
void RegisterMemoryFamily(CommandRegistry& registry);
void RegisterScriptingFamily(CommandRegistry& registry);
void RegisterFaultFamily(CommandRegistry& registry);
void RegisterMonitorFamily(CommandRegistry& registry);
void RegisterSlowlogFamily(CommandRegistry& registry);
void RegisterLatencyFamily(CommandRegistry& registry);
void RegisterHashFamily(CommandRegistry& registry);
void RegisterSetFamily(CommandRegistry& registry);
void RegisterZSetFamily(CommandRegistry& registry);
void RegisterZSetRangeFamily(CommandRegistry& registry);
void RegisterZSetSetOpFamily(CommandRegistry& registry);
void RegisterGeoFamily(CommandRegistry& registry);
void RegisterHllFamily(CommandRegistry& registry);
void RegisterSortFamily(CommandRegistry& registry);
void RegisterStreamFamily(CommandRegistry& registry);
void RegisterStreamGroupFamily(CommandRegistry& registry);
void RegisterPubSubFamily(CommandRegistry& registry);
void RegisterTransactionFamily(CommandRegistry& registry);
void RegisterDumpFamily(CommandRegistry& registry);
void RegisterMigrateFamily(CommandRegistry& registry);
void RegisterPersistenceFamily(CommandRegistry& registry);
void RegisterClusterFamily(CommandRegistry& registry);

}  // namespace kv
