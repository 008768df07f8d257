#pragma once
// The stage-2 judge of a policy's cascade (core/decide/cascade.h) as a Backend. dgem names it by
// URL (--cascade-url); the Studio lets cascade_endpoint name one of its endpoint profiles too, so
// that the judge has its own URL, model, transport and auth (its own keychain token, never stage
// 1's).

#include <memory>

#include "core/decide/backend.h"
#include "core/endpoints/endpoint_profiles.h"
#include "core/net/remote_backends.h"

namespace core {

// An OpenAI-compatible chat endpoint as a judge: no retries (a judge that does not answer is
// reported and stage 1's answer kept, not awaited) and at most a minute per question.
std::unique_ptr<Backend> make_chat_judge(RemoteOptions options);

// The judge for `cascade` (nullptr when its mode is off): cascade_endpoint is an http(s) URL or
// the name of a remote endpoint profile in `profiles`. Reads that profile's secrets, so call it
// on the thread that owns the keychain. Errors name cascade_endpoint and what is accepted.
Result<std::unique_ptr<Backend>> make_cascade_judge(const CascadeSettings& cascade,
                                                    const EndpointProfileStore& profiles,
                                                    const EnvLookup& env = process_environment());

}  // namespace core
