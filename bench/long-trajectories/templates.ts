import { readFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * SWE-agent's prompts as a run sends them. Read at generation time from the shared fixtures (real,
 * verbatim); the embedded copies below are shortened from the same MIT-licensed SWE-agent templates
 * (copyright 2024 John Yang, Carlos E. Jimenez, Alexander Wettig, Shunyu Yao, Karthik Narasimhan,
 * Ofir Press) so the generator also works in a clone without ../shared.
 */
export interface SweAgentTemplates {
  /** Where the text came from: a fixture file name, or "embedded". */
  source: string;
  system: string;
  /** The rendered demonstration message (is_demo), or undefined when the source has none. */
  demonstration: string | undefined;
  /** The task message for an issue, with the shell prompt of a fresh session in `root`. */
  instance(issue: string, root: string): string;
}

/** The newer-generation default-config run whose system prompt and instance message are reused. */
export const SYSTEM_FIXTURE = 'replay__marshmallow-1867__default_sys-env_window100.traj';
/** The run whose history carries the rendered demonstration. */
export const DEMO_FIXTURE = 'gpt4__swe-bench-dev-easy_first_only__default__t-0.00__p-0.95__c-3.00__install-1__pydicom__pydicom-1458.traj';

interface FixtureMessage {
  role?: string;
  content?: unknown;
  is_demo?: boolean;
}

/**
 * The templates from `sharedDir` when both fixture files are there and have the expected shape,
 * else the embedded copies. Never throws for a missing folder: the caller reports `source`.
 */
export async function loadTemplates(sharedDir: string | undefined): Promise<SweAgentTemplates> {
  if (!sharedDir) return embeddedTemplates();
  const system = await readHistory(path.join(sharedDir, SYSTEM_FIXTURE));
  const demo = await readHistory(path.join(sharedDir, DEMO_FIXTURE));
  const systemText = system?.find((m) => m.role === 'system')?.content;
  const instanceText = system?.find((m) => m.role === 'user' && !m.is_demo)?.content;
  const demoText = demo?.find((m) => m.is_demo)?.content;
  if (typeof systemText !== 'string' || typeof instanceText !== 'string' || typeof demoText !== 'string') return embeddedTemplates();
  const instance = instanceFrom(instanceText);
  if (!instance) return embeddedTemplates();
  return { source: `${SYSTEM_FIXTURE} + ${DEMO_FIXTURE}`, system: systemText, demonstration: demoText, instance };
}

async function readHistory(file: string): Promise<FixtureMessage[] | undefined> {
  try {
    const json = JSON.parse(await readFile(file, 'utf8')) as { history?: FixtureMessage[] };
    return Array.isArray(json.history) ? json.history : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Turns a real instance message into a template: the text before `ISSUE:` and from `INSTRUCTIONS:`
 * stays verbatim; only the issue and the working directory of the closing prompt change.
 */
function instanceFrom(text: string): SweAgentTemplates['instance'] | undefined {
  const issueAt = text.indexOf('ISSUE:\n');
  const instructionsAt = text.indexOf('\nINSTRUCTIONS:\n');
  if (issueAt < 0 || instructionsAt < issueAt) return undefined;
  const head = text.slice(0, issueAt + 'ISSUE:\n'.length);
  const tail = text.slice(instructionsAt + 1);
  return (issue, root) => `${head}${issue}\n\n\n${tail.replace(/\(Current directory: [^)]*\)/, `(Current directory: ${root})`)}`;
}

/** Shortened copies of the SWE-agent default templates (see the module comment for the licence). */
export function embeddedTemplates(): SweAgentTemplates {
  return {
    source: 'embedded',
    system: EMBEDDED_SYSTEM,
    demonstration: EMBEDDED_DEMO,
    instance: (issue, root) =>
      `We're currently solving the following issue within our repository. Here's the issue text:\nISSUE:\n${issue}\n\n\n${EMBEDDED_INSTRUCTIONS}\n\n(Open file: n/a)\n(Current directory: ${root})\nbash-$`,
  };
}

const EMBEDDED_SYSTEM = `SETTING: You are an autonomous programmer, and you're working directly in the command line with a special interface.

The special interface consists of a file editor that shows you 100 lines of a file at a time.
In addition to typical bash commands, you can also use the following commands to help you navigate and edit files.

COMMANDS:
open <path> [<line_number>] - opens the file at the given path in the editor. If line_number is provided, the window will be move to include that line
goto <line_number> - moves the window to show <line_number>
scroll_down - moves the window down 100 lines
scroll_up - moves the window up 100 lines
create <filename> - creates and opens a new file with the given name
submit - submits your current code and terminates the session
search_dir <search_term> [<dir>] - searches for search_term in all files in dir. If dir is not provided, searches in the current directory
search_file <search_term> [<file>] - searches for search_term in file. If file is not provided, searches in the current open file
find_file <file_name> [<dir>] - finds all files with the given name in dir. If dir is not provided, searches in the current directory
edit <start_line>:<end_line>
<replacement_text>
end_of_edit - replaces lines <start_line> through <end_line> (inclusive) with the given text in the open file. The replacement text is terminated by a line with only end_of_edit on it. All of the <replacement text> will be entered, so make sure your indentation is formatted properly. Python files will be checked for syntax errors after the edit. If the system detects a syntax error, the edit will not be executed. Simply try to edit the file again, but make sure to read the error message and modify the edit command you issue accordingly. Issuing the same command a second time will just lead to the same error message again.

Please note that THE EDIT COMMAND REQUIRES PROPER INDENTATION.
If you'd like to add the line '        print(x)' you must fully write that out, with all those spaces before the code! Indentation is important and code that is not indented correctly will fail and require fixing before it can be run.

RESPONSE FORMAT:
Your shell prompt is formatted as follows:
(Open file: <path>) <cwd> $

You need to format your output using two fields; discussion and command.
Your output should always include _one_ discussion and _one_ command field EXACTLY as in the following example:
DISCUSSION
First I'll start by using ls to see what files are in the current directory. Then maybe we can look at some relevant files to see what they look like.
\`\`\`
ls -a
\`\`\`

You should only include a *SINGLE* command in the command section and then wait for a response from the shell before continuing with more discussion and commands.
You're free to use any other bash commands you want (e.g. find, grep, cat, ls, cd) in addition to the special commands listed above.
However, the environment does NOT support interactive session commands (e.g. python, vim), so please do not invoke them.`;

const EMBEDDED_INSTRUCTIONS = `INSTRUCTIONS:
Now, you're going to solve this issue on your own. Your terminal session has started and you're in the repository's root directory. You can use any bash commands or the special interface to help you. Edit all the files you need to and run any checks or tests that you want.
Remember, YOU CAN ONLY ENTER ONE COMMAND AT A TIME. You should always wait for feedback after every command.
When you're satisfied with all of the changes you've made, you can submit your changes to the code base by simply running the submit command.
Note however that you cannot use any interactive session commands (e.g. python, vim) in this environment, but you can write scripts and run them. E.g. you can write a python script and then run it with \`python <script_name>.py\`.

NOTE ABOUT THE EDIT COMMAND: Indentation really matters! When editing a file, make sure to insert appropriate indentation before each line!

IMPORTANT TIPS:
1. Always start by trying to replicate the bug that the issues discusses.
   If the issue includes code for reproducing the bug, we recommend that you re-implement that in your environment, and run it to make sure you can reproduce the bug.
   Then start trying to fix it.
   When you think you've fixed the bug, re-run the bug reproduction script to make sure that the bug has indeed been fixed.

2. If you run a command and it doesn't work, try running a different command. A command that did not work once will not work the second time unless you modify it!

3. If you open a file and need to get to an area around a specific line that is not in the first 100 lines, say line 583, don't just use the scroll_down command multiple times. Instead, use the goto 583 command. It's much quicker.

4. Always make sure to look at the currently open file and the current working directory (which appears right after the currently open file). The currently open file might be in a different directory than the working directory!

5. When editing files, it is easy to accidentally specify a wrong line number or to write code with incorrect indentation. Always check the code after you issue an edit to make sure that it reflects what you wanted to accomplish. If it didn't, issue another command to fix it.`;

const EMBEDDED_DEMO = `Here is a demonstration of how to correctly accomplish this task.
It is included to show you how to correctly use the interface.
You do not need to follow exactly what is done in the demonstration.
--- DEMONSTRATION ---
We're currently solving the following issue within our repository. Here's the issue text:
ISSUE:
TimeDelta serialization precision
Output of \`TimeDelta(precision="milliseconds").serialize\` for 345 ms is \`344\`, but it seems that \`345\` is correct.

(Open file: n/a)
(Current directory: /marshmallow-code__marshmallow)
bash-$
Let's first start by reproducing the results of the issue. We'll create a new file called \`reproduce.py\` and paste the example code into it.
\`\`\`
create reproduce.py
\`\`\`
[File: /marshmallow-code__marshmallow/reproduce.py (1 lines total)]
1:

(Open file: /marshmallow-code__marshmallow/reproduce.py)
(Current directory: /marshmallow-code__marshmallow)
bash-$
Let's open the \`fields.py\` file and navigate to line 1474 to see the relevant code.
\`\`\`
open src/marshmallow/fields.py 1474
\`\`\`
[File: /marshmallow-code__marshmallow/src/marshmallow/fields.py (1997 lines total)]
(1458 more lines above)
1471:    def _serialize(self, value, attr, obj, **kwargs):
1472:        if value is None:
1473:            return None
1474:        base_unit = dt.timedelta(**{self.precision: 1})
1475:        return int(value.total_seconds() / base_unit.total_seconds())
(439 more lines below)

(Open file: /marshmallow-code__marshmallow/src/marshmallow/fields.py)
(Current directory: /marshmallow-code__marshmallow)
bash-$
The current implementation truncates instead of rounding. Let's round to the nearest integer.
\`\`\`
edit 1475:1475
        return int(round(value.total_seconds() / base_unit.total_seconds()))  # round to nearest int
end_of_edit
\`\`\`
File updated. Please review the changes and make sure they are correct (correct indentation, no duplicate lines, etc). Edit the file again if necessary.

(Open file: /marshmallow-code__marshmallow/src/marshmallow/fields.py)
(Current directory: /marshmallow-code__marshmallow)
bash-$
Now that we have fixed the issue, we should submit our changes to the code base.
\`\`\`
submit
\`\`\`
--- END OF DEMONSTRATION ---
`;
