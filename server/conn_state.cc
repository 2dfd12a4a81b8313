#include "server/conn_state.h"

#include "server/pubsub.h"
#include "server/tracking.h"
#include "server/transaction.h"

namespace kv {

// Out of line: the per-connection pub/sub, MULTI and tracking states are complete only here.
ConnState::ConnState() = default;
ConnState::~ConnState() = default;
ConnState& ConnState::operator=(ConnState&&) = default;

}  // namespace kv
