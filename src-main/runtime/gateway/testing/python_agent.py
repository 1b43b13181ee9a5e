"""A plain agent loop on the official `openai` package, as its users write one: the
gateway tests point it at the workbench's model gateway (OPENAI_BASE_URL, OPENAI_API_KEY).

Environment: TASK (the user's question), STREAM=1 (streamed calls), RUN_NAME (sent as
X-Workbench-Run), MAX_TURNS. Prints one JSON line per model reply, and on an error
{"error": ...} and exits 3.
"""
import json
import os
import sys

from openai import OpenAI

run_name = os.environ.get("RUN_NAME")
client = OpenAI(
    base_url=os.environ["OPENAI_BASE_URL"],
    api_key=os.environ["OPENAI_API_KEY"],
    default_headers={"X-Workbench-Run": run_name} if run_name else None,
    max_retries=0,
)
stream = os.environ.get("STREAM") == "1"
messages = [
    {"role": "system", "content": "You are a weather agent. Use get_weather."},
    {"role": "user", "content": os.environ.get("TASK", "What is the weather in Paris and Rome?")},
]
tools = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "The weather of a city",
            "parameters": {
                "type": "object",
                "properties": {"city": {"type": "string"}},
                "required": ["city"],
            },
        },
    }
]


def call_model():
    kwargs = dict(
        model="gpt-4o-mini",
        messages=messages,
        tools=tools,
        temperature=0.2,
        extra_body={"seed": 7, "metadata": {"suite": "gateway"}},
    )
    if not stream:
        message = client.chat.completions.create(**kwargs).choices[0].message
        calls = [(c.id, c.function.name, c.function.arguments) for c in message.tool_calls or []]
        return message.content, calls
    content, calls = None, {}
    for chunk in client.chat.completions.create(stream=True, **kwargs):
        if not chunk.choices:
            continue
        delta = chunk.choices[0].delta
        if delta.content:
            content = (content or "") + delta.content
        for part in delta.tool_calls or []:
            slot = calls.setdefault(part.index, ["", "", ""])
            slot[0] = part.id or slot[0]
            slot[1] += (part.function.name or "") if part.function else ""
            slot[2] += (part.function.arguments or "") if part.function else ""
    return content, [tuple(calls[i]) for i in sorted(calls)]


for turn in range(int(os.environ.get("MAX_TURNS", "8"))):
    try:
        content, calls = call_model()
    except Exception as error:  # the agent reports what its SDK raised
        print(json.dumps({"error": f"{type(error).__name__}: {error}"}), flush=True)
        sys.exit(3)
    print(json.dumps({"turn": turn + 1, "content": content, "calls": calls}), flush=True)
    assistant = {"role": "assistant", "content": content}
    if calls:
        assistant["tool_calls"] = [
            {"id": i, "type": "function", "function": {"name": n, "arguments": a}} for i, n, a in calls
        ]
    messages.append(assistant)
    if not calls:
        break
    for call_id, name, arguments in calls:
        city = json.loads(arguments).get("city")
        messages.append({"role": "tool", "tool_call_id": call_id, "content": f"sunny in {city}"})
