#include "io/PipeWireConnections.h"

#include <pipewire/extensions/metadata.h>
#include <pipewire/filter.h>
#include <pipewire/link.h>
#include <pipewire/pipewire.h>

#include <cerrno>
#include <cstring>

#include "io/PipeWireGraph.h"

// PipeWire's listener and method macros use compound literals and statement expressions.
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wc99-extensions"
#pragma clang diagnostic ignored "-Wgnu-statement-expression-from-macro-expansion"
#endif

namespace spindle::io {

namespace {

constexpr int64_t kStartWaitNs = 3'000'000'000;  // attach(): the graph and Spindle's own ports
constexpr int64_t kAnswerWaitNs = 2'000'000'000;  // link(): the server's answer to one request
constexpr const char* kDefaultSinkKey = "default.audio.sink";

class LoopLock {
 public:
  explicit LoopLock(pw_thread_loop* loop) : loop_(loop) { pw_thread_loop_lock(loop_); }
  ~LoopLock() { pw_thread_loop_unlock(loop_); }
  LoopLock(const LoopLock&) = delete;
  LoopLock& operator=(const LoopLock&) = delete;

 private:
  pw_thread_loop* loop_;
};

}  // namespace

struct PipeWireConnections::Registry {
  PipeWireConnections* keeper = nullptr;
  pw_thread_loop* loop = nullptr;
  pw_core* core = nullptr;
  pw_filter* filter = nullptr;
  pw_registry* registry = nullptr;
  pw_metadata* metadata = nullptr;  // the "default" metadata, bound when it appears
  uint32_t metadataId = SPA_ID_INVALID;
  spa_hook coreListener{}, registryListener{}, metadataListener{};
  PipeWireGraph graph;
  int syncSeq = 0;        // the last pw_core_sync asked for
  bool synced = false;    // ... and answered: every event sent before it has arrived
  bool broken = false;    // the connection is gone: nobody waits for an answer
  int refused = 0;        // the server's error for the link being made (negative errno)
  std::string refusal;

  uint32_t self() const { return pw_filter_get_node_id(filter); }
  void sync();
  template <class Done>
  bool waitFor(int64_t timeoutNs, Done done);
  bool connect(uint32_t output, uint32_t input, std::string& error);
  bool disconnect(uint32_t output, uint32_t input, std::string& error);
  void bindMetadata(uint32_t id);
  void dropMetadata();
};

namespace {

using Registry = PipeWireConnections::Registry;

// ---- pw-loop thread ---------------------------------------------------------

void onGlobal(void* data, uint32_t id, uint32_t, const char* type, uint32_t, const spa_dict* props) {
  auto* r = static_cast<Registry*>(data);
  const char* name = props ? spa_dict_lookup(props, PW_KEY_METADATA_NAME) : nullptr;
  if (type && std::strcmp(type, PW_TYPE_INTERFACE_Metadata) == 0 && name && std::strcmp(name, "default") == 0) {
    r->bindMetadata(id);
  } else {
    r->graph.add(id, type, props);
  }
  pw_thread_loop_signal(r->loop, false);  // attach() waits for Spindle's own ports
  r->keeper->poke();
}

void onGlobalRemove(void* data, uint32_t id) {
  auto* r = static_cast<Registry*>(data);
  if (id == r->metadataId) r->dropMetadata();
  if (std::string port = r->graph.remove(id); !port.empty()) r->keeper->portGone(std::move(port));
  else r->keeper->poke();
}

// Subject 0 (PW_ID_CORE) holds the session's defaults; a null key clears them all.
int onMetadataProperty(void* data, uint32_t subject, const char* key, const char*, const char* value) {
  auto* r = static_cast<Registry*>(data);
  if (subject != PW_ID_CORE || (key && std::strcmp(key, kDefaultSinkKey) != 0)) return 0;
  r->graph.setDefaultSink(key ? value : nullptr);
  r->keeper->poke();
  return 0;
}

void onCoreDone(void* data, uint32_t id, int seq) {
  auto* r = static_cast<Registry*>(data);
  if (id != PW_ID_CORE || seq != r->syncSeq) return;
  r->synced = true;
  pw_thread_loop_signal(r->loop, false);
}

void onRegistryCoreError(void* data, uint32_t id, int, int res, const char*) {
  auto* r = static_cast<Registry*>(data);
  if (id != PW_ID_CORE || res != -EPIPE) return;
  r->broken = true;
  pw_thread_loop_signal(r->loop, false);
}

void onLinkError(void* data, int, int res, const char* message) {
  auto* r = static_cast<Registry*>(data);
  r->refused = res;
  r->refusal = message ? message : "";
  pw_thread_loop_signal(r->loop, false);
}

pw_registry_events registryEvents() {
  pw_registry_events events{};
  events.version = PW_VERSION_REGISTRY_EVENTS;
  events.global = onGlobal;
  events.global_remove = onGlobalRemove;
  return events;
}
pw_metadata_events metadataEvents() {
  pw_metadata_events events{};
  events.version = PW_VERSION_METADATA_EVENTS;
  events.property = onMetadataProperty;
  return events;
}
pw_core_events registryCoreEvents() {
  pw_core_events events{};
  events.version = PW_VERSION_CORE_EVENTS;
  events.done = onCoreDone;
  events.error = onRegistryCoreError;
  return events;
}
pw_proxy_events linkEvents() {
  pw_proxy_events events{};
  events.version = PW_VERSION_PROXY_EVENTS;
  events.error = onLinkError;
  return events;
}
const pw_registry_events kRegistryEvents = registryEvents();
const pw_metadata_events kMetadataEvents = metadataEvents();
const pw_core_events kRegistryCoreEvents = registryCoreEvents();
const pw_proxy_events kLinkEvents = linkEvents();

}  // namespace

// Its properties arrive after the bind: a new sync makes attach() wait for them too.
void Registry::bindMetadata(uint32_t id) {
  if (metadata) return;
  metadata = static_cast<pw_metadata*>(pw_registry_bind(registry, id, PW_TYPE_INTERFACE_Metadata, PW_VERSION_METADATA, 0));
  if (!metadata) return;
  metadataId = id;
  pw_metadata_add_listener(metadata, &metadataListener, &kMetadataEvents, this);
  sync();
}

void Registry::dropMetadata() {
  if (!metadata) return;
  spa_hook_remove(&metadataListener);
  pw_proxy_destroy(reinterpret_cast<pw_proxy*>(metadata));
  metadata = nullptr;
  metadataId = SPA_ID_INVALID;
  graph.setDefaultSink(nullptr);
}

void Registry::sync() {
  synced = false;
  syncSeq = pw_core_sync(core, PW_ID_CORE, syncSeq);
}

// ---- main thread and keeper thread (the loop locked) ------------------------

// Never on the pw-loop thread: the wait lets it run (it releases the lock).
template <class Done>
bool Registry::waitFor(int64_t timeoutNs, Done done) {
  timespec deadline{};
  pw_thread_loop_get_time(loop, &deadline, timeoutNs);
  while (!done() && !broken)
    if (pw_thread_loop_timed_wait_full(loop, &deadline) < 0) break;
  return done();
}

// object.linger: the link belongs to the graph, like one made by pw-link or a patchbay,
// not to our proxy (without it the server destroys the link with the proxy, and we
// would hold one proxy per link). The proxy is dropped once the server has answered.
// A link goes when either of its ports goes, so Spindle's links leave with its node;
// anyone may break one like any other link.
bool Registry::connect(uint32_t output, uint32_t input, std::string& error) {
  pw_properties* props = pw_properties_new(PW_KEY_OBJECT_LINGER, "true", nullptr);
  pw_properties_setf(props, PW_KEY_LINK_OUTPUT_NODE, "%u", graph.nodeOf(output));
  pw_properties_setf(props, PW_KEY_LINK_OUTPUT_PORT, "%u", output);
  pw_properties_setf(props, PW_KEY_LINK_INPUT_NODE, "%u", graph.nodeOf(input));
  pw_properties_setf(props, PW_KEY_LINK_INPUT_PORT, "%u", input);
  auto* proxy = static_cast<pw_proxy*>(
      pw_core_create_object(core, "link-factory", PW_TYPE_INTERFACE_Link, PW_VERSION_LINK, &props->dict, 0));
  pw_properties_free(props);
  if (!proxy) {
    error = "cannot ask PipeWire for a link";
    return false;
  }
  refused = 0;
  spa_hook listener{};
  pw_proxy_add_listener(proxy, &listener, &kLinkEvents, this);
  sync();  // answered after the link is made, or after its error
  const bool answered = waitFor(kAnswerWaitNs, [this] { return synced; });
  spa_hook_remove(&listener);
  pw_proxy_destroy(proxy);
  if (refused == -EEXIST) return true;
  if (refused < 0) error = "PipeWire refused: " + refusal;
  else if (!answered) error = "no answer from PipeWire";
  return answered && refused == 0;
}

bool Registry::disconnect(uint32_t output, uint32_t input, std::string& error) {
  const std::optional<uint32_t> link = graph.linkBetween(output, input);
  if (!link) {
    error = "not connected";
    return false;
  }
  pw_registry_destroy(registry, *link);
  sync();  // the global's removal arrives before the answer
  if (!waitFor(kAnswerWaitNs, [this] { return synced; })) error = "no answer from PipeWire";
  else if (graph.linkBetween(output, input)) error = "PipeWire kept the link (no permission?)";
  else return true;
  return false;
}

PipeWireConnections::PipeWireConnections() = default;

PipeWireConnections::~PipeWireConnections() {
  stop();
  detach();
}

void PipeWireConnections::attach(pw_thread_loop* loop, pw_core* core, pw_filter* filter) {
  detach();
  registry_ = std::make_unique<Registry>();
  Registry& r = *registry_;
  r.keeper = this;
  r.loop = loop;
  r.core = core;
  r.filter = filter;
  LoopLock lock(loop);
  pw_core_add_listener(core, &r.coreListener, &kRegistryCoreEvents, &r);
  r.registry = pw_core_get_registry(core, PW_VERSION_REGISTRY, 0);
  if (!r.registry) return;
  pw_registry_add_listener(r.registry, &r.registryListener, &kRegistryEvents, &r);
  r.sync();
  r.waitFor(kStartWaitNs, [&r] { return r.synced && r.graph.hasOwnPorts(r.self()); });
}

void PipeWireConnections::detach() {
  if (!registry_) return;
  Registry& r = *registry_;
  {
    LoopLock lock(r.loop);
    r.dropMetadata();
    if (r.registry) {
      spa_hook_remove(&r.registryListener);
      pw_proxy_destroy(reinterpret_cast<pw_proxy*>(r.registry));
    }
    spa_hook_remove(&r.coreListener);
  }
  registry_.reset();
}

// ---- keeper thread ----------------------------------------------------------

PortInventory PipeWireConnections::inventory() {
  if (!registry_) return {};
  LoopLock lock(registry_->loop);
  return registry_->graph.inventory(registry_->self());
}

bool PipeWireConnections::link(const PortLink& link, bool on, std::string& error) {
  if (!registry_ || !registry_->registry) {
    error = "not connected to PipeWire";
    return false;
  }
  Registry& r = *registry_;
  LoopLock lock(r.loop);
  const std::optional<uint32_t> own = r.graph.ownPort(r.self(), link.port);
  const std::optional<uint32_t> peer = r.graph.portNamed(link.peer);
  if (!own || !peer) {
    error = own ? "no port " + link.peer : "Spindle has no port " + link.port;
    return false;
  }
  const bool output = r.graph.isOutput(*own);
  const uint32_t source = output ? *own : *peer;
  const uint32_t destination = output ? *peer : *own;
  return on ? r.connect(source, destination, error) : r.disconnect(source, destination, error);
}

}  // namespace spindle::io
