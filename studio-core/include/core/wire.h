#pragma once
// The wire domain of studio-core in one include (its headers are in core/wire/).

#include "core/wire/chat_decision.h"
#include "core/wire/chat_messages.h"
#include "core/wire/decision_json.h"
#include "core/wire/openai_chat.h"
#include "core/wire/structured_read.h"
#include "core/wire/systemone.h"
