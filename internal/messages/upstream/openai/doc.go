// Package openai is the upstream kind "openai": it puts Chat
// Completions-compatible servers (OpenAI, DeepSeek, GLM, Kimi, OpenRouter,
// Copilot, Groq, Mistral, Ollama, vLLM, SGLang) behind webgate's Messages
// API. [Model] is the [emulate.Model] the emulation loop drives: each
// Messages request is translated by [ToChat], posted to
// <base_url>/chat/completions, and the streamed reply is turned into
// Messages API events by a [StreamTranslator] as it arrives. [FromChat]
// converts a whole (non-streamed) reply; [ClientError] maps every failure
// that happens before the first event to the status and Anthropic error
// the client gets.
//
// The two wire formats: OpenAI's Chat Completions reference
// (https://platform.openai.com/docs/api-reference/chat/create, and for streamed
// replies https://platform.openai.com/docs/api-reference/chat-streaming) and Anthropic's Messages
// API (https://docs.anthropic.com/en/api/messages, streamed as
// https://docs.anthropic.com/en/docs/build-with-claude/streaming).
//
// # Using the Model
//
//	m, err := openai.NewModel(cfg.Upstream, openai.ModelOptions{Logger: log})
//	evs, err := m.Stream(ctx, r.Header, body) // body: a Messages request
//	if err != nil {
//		status, resp := openai.ClientError(err) // nothing streamed yet
//	}
//	defer evs.Close()
//	for {
//		ev, err := evs.Next() // io.EOF after message_stop or an error event
//	}
//
// Stream reads the reply up to its first event before returning, so an
// upstream that fails before producing anything (a 4xx/5xx, a 200 whose
// body is an error object or an HTML page, an error chunk first) is an
// error the client can be answered with over HTTP. After that every
// failure is an Anthropic error event followed by io.EOF; only the end of
// ctx makes Next return an error (ctx's). Events are pulled: Next reads
// the upstream only when the translated events are used up. Close cancels
// the upstream request and may be called while Next waits.
//
// # Requests (ToChat)
//
//	Messages API                     Chat Completions
//	model                            model, through the model map (glob
//	                                 patterns, first match wins, * and ?
//	                                 match "/" too; unmatched names pass),
//	                                 which also gives the model's settings
//	                                 (config.ModelRule)
//	system (string or text blocks),  one leading "system" message: the
//	  and role "system" messages       system prompt, then each system
//	  inside messages                  message's text in order (many chat
//	                                   templates refuse a system message
//	                                   once the conversation has started);
//	                                   adjacent user messages left by the
//	                                   move are joined
//	tool_addition / tool_removal     the tool is added to / removed from
//	  in a system message              tools
//	user text blocks                 "user" message; a plain string (blocks
//	                                 joined with a blank line) unless it has
//	                                 images, then content parts
//	image, base64 / url source       image_url part, data: URL / the URL
//	document, text / content source  text part, headed by its title
//	document, base64 PDF             text part: the PDF's text read by
//	                                 webgate's extractor (Options.PDFText)
//	search_result                    text part: title, source URL, content
//	tool_reference (Claude Code's    "Tool loaded: NAME. Call it directly."
//	  ToolSearch result)               and the named defer_loading tool is
//	                                   sent from then on
//	user tool_result                 one "tool" message per result with
//	                                 tool_call_id, placed before the user
//	                                 message holding the turn's other blocks,
//	                                 in the order of the assistant's calls
//	                                 (tool messages must directly follow the
//	                                 assistant's tool_calls); text joined
//	                                 with a blank line; is_error prefixes
//	                                 "Error: "; images in a result move to
//	                                 the following user message
//	assistant text blocks            content, concatenated as is
//	assistant tool_use               tool_calls[] {id, type function,
//	                                 function {name, arguments = compact
//	                                 JSON of input}}; content null if there
//	                                 is no text
//	thinking with webgate's          on a message with tool_calls, replayed
//	  signature (see below)            in the field it came in
//	                                   (reasoning_content or reasoning):
//	                                   DeepSeek's thinking mode and Kimi
//	                                   reject a tool-calling turn without it
//	tools [{name, description,       tools [{type function, function {name,
//	  input_schema, strict}]           description, parameters, strict}}];
//	                                   defer_loading tools only once a
//	                                   tool_reference names them; long
//	                                   descriptions shortened where the
//	                                   model's max_tool_description says
//	tool and call names              names outside ^[a-zA-Z0-9_-]{1,64}$
//	                                 are changed (invalid bytes to "_",
//	                                 long ones cut and hashed) and mapped
//	                                 back in replies
//	tool_choice auto/any/none        "auto"/"required"/"none" (left out
//	                                 when no tool is sent)
//	tool_choice tool {name}          {type function, function {name}}
//	disable_parallel_tool_use        parallel_tool_calls false
//	max_tokens                       max_tokens, or max_completion_tokens
//	                                 with upstream.max_completion_tokens,
//	                                 clamped to the model's max_tokens
//	                                 (default 8192)
//	thinking, output_config.effort   the model's reasoning style:
//	                                 reasoning_effort, OpenRouter's
//	                                 reasoning, thinking {type} or
//	                                 chat_template_kwargs.enable_thinking;
//	                                 dropped when none is configured
//	code_execution_* tool            a sentence in the system prompt that
//	                                 code execution is not available
//	stop_sequences                   stop
//	temperature, top_p               temperature, top_p
//	metadata.user_id                 user; one longer than the model's
//	                                 max_user_length (default 64) becomes
//	                                 "wg-" and a hash of it
//	stream                           stream, with stream_options
//	                                 {include_usage: true} (the Model always
//	                                 streams unless ModelOptions.NoStream)
//
// # Degraded, not refused
//
// A turn never fails over something that can safely be dropped: other
// thinking and redacted_thinking (Anthropic-signed reasoning cannot be
// replayed elsewhere), server tool blocks from a conversation begun on
// Anthropic's API (server_tool_use, *_tool_result, mcp_tool_use, ...;
// the emulation loop has already rewritten webgate's own), other typed
// tools (Anthropic's server tools and schema-less client tools such as
// bash_20250124), unknown block types, non-text system blocks, unknown
// tool_choice types, and the members top_k, service_tier, container,
// mcp_servers, context_management, output_format and any member webgate
// does not know are dropped; URL and Files API documents and images, and
// PDFs without a text layer, become a note saying what was attached; a
// tool result without its call becomes user text; a call without a result
// gets one saying so. Each kind of drop is logged at debug level and
// reported once per request through Options.Degraded (the metric
// webgate_messages_degraded_total). cache_control markers and citations
// on text are ignored. Only input Anthropic's API refuses too is an error
// ([anthropic.ErrInvalidRequest], 400 invalid_request_error): malformed
// members, an unknown role, a tool or tool_addition without a name, a
// tool_use input that is not an object.
//
// # Replies (StreamTranslator, FromChat)
//
//	reasoning_content (DeepSeek,     a thinking block; its signature is
//	  Kimi, GLM, older vLLM) or        SignaturePrefix + the field name,
//	  reasoning (OpenRouter,           which is how the reasoning is
//	  Ollama, newer vLLM)              replayed in later requests
//	Mistral "thinking" content       a thinking block (not replayed)
//	  parts; a reply opening with
//	  <think>...</think> (GLM-Z1,
//	  MiniMax, no reasoning parser)
//	content (string or text parts)   a text block, streamed as text_delta
//	refusal                          text, and stop_reason refusal
//	tool_calls                       tool_use blocks; upstream ids kept,
//	                                 toolu_ ids generated when absent
//	finish_reason stop               end_turn, or tool_use if the reply has
//	                                 tool calls (Ollama and some OpenAI
//	                                 models finish tool calls with stop)
//	length                           max_tokens
//	tool_calls, function_call        tool_use
//	content_filter, sensitive (GLM)  refusal
//	model_context_window_exceeded    model_context_window_exceeded
//	error (OpenRouter), abort        an error event
//	  (SGLang), network_error (GLM)
//	stop_reason (vLLM) or            stop_reason stop_sequence with the
//	  matched_stop (SGLang) naming     matched string, as Anthropic reports
//	  one of the stop_sequences        it; otherwise a stop is end_turn
//	usage at top level, in           prompt_tokens minus cache reads and
//	  choices[0] (Kimi) or x_groq      writes -> input_tokens;
//	  (Groq); cached_tokens or         cache reads -> cache_read_input_tokens;
//	  prompt_cache_hit_tokens          OpenRouter's cache_write_tokens ->
//	  (DeepSeek)                       cache_creation_input_tokens;
//	                                 completion_tokens -> output_tokens
//	id                               "msg_" + id (kept if it already starts
//	                                 with msg_; generated when absent)
//	model                            the name the client asked for
//
// Every choice belongs to the one reply: webgate never asks for n > 1,
// and GitHub Copilot puts a Claude model's text and tool calls in
// separate choices. Error objects are recognised in OpenAI's shape
// ({"error": {...}}, also with a bare string), vLLM's ({"object":
// "error", "message": ...}) and as an SSE "error" event. Tool-call
// arguments sent as a JSON object instead of a string are accepted.
//
// # Streams
//
// message_start is written on the first chunk (usage zero: Chat
// Completions reports usage at the end; message_delta carries it all).
// Reasoning becomes a thinking block with thinking_delta events and a
// final signature_delta, content a text block with text_delta events;
// switching between them closes one block and opens the next, so block
// indices stay continuous. Each tool call becomes a tool_use block whose
// content_block_start carries the id and name and whose argument
// fragments are forwarded unchanged as input_json_delta.
//
// Anthropic streams allow one open block at a time, while Chat Completions
// may interleave fragments of parallel calls by index. Tool calls are
// therefore emitted in order of first appearance: the current call streams
// live, fragments of later calls are held back (bounded by
// Limits.MaxBufferedBytes), and the current call's block closes as soon as
// its arguments form a complete JSON object, at which point the next
// call's held fragments are written and it streams live in turn. Calls
// are told apart by index; a fragment that names a function starts a new
// call when the previous one under that index is complete or has another
// id (some servers number every call 0), and calls without index or id
// are told apart the same way. A name sent in fragments is joined before
// the block opens. Whitespace-only text between tool calls (Qwen's hermes
// format) is held back rather than splitting them with a text block.
//
// Arguments are validated as they arrive, byte by byte: the moment they
// stop being a prefix of a JSON object the stream ends with an error
// event, and a call whose object is unfinished when the reply ends is an
// error too, unless the reply was cut off by its token limit (then, as
// with Anthropic, stop_reason is max_tokens and the partial JSON stands).
// No client is ever handed a malformed or truncated tool call as if it
// were whole.
//
// The stream ends with message_delta and message_stop at [DONE], or at the
// end of input after a finish_reason. An error chunk, a malformed chunk,
// an error finish_reason, end of input before any finish_reason, a read
// error, the upstream's silence beyond the idle timeout or an exceeded
// limit ends it with an Anthropic error event instead (rate_limit_error,
// overloaded_error, invalid_request_error, authentication_error or
// api_error).
package openai

import "github.com/webgate/webgate/internal/messages/emulate"

var _ emulate.Model = (*Model)(nil)
