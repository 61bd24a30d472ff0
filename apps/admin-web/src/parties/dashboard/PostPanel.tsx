import { useState } from 'react';
import { Button, Checkbox, NumberInput, Stack, Tabs, Textarea, TextInput } from '@mantine/core';
import { PostPollBody, PostPopupBody, PostQuizQuestionBody, PostScoreboardBody } from '@fanfare/protocol';
import type { z } from 'zod';
import { notifyDone, notifyError } from '../../ui/notify.ts';
import type { PartyLiveApi } from './liveApi.ts';

/** Parses with the protocol schema the server uses, so the browser refuses what the server would. */
function check<S extends z.ZodType>(schema: S, value: unknown): z.output<S> | string {
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : parsed.error.issues.map((i) => `${i.path.join('.') || 'value'}: ${i.message}`).join('; ');
}

const lines = (text: string) => text.split('\n').map((l) => l.trim()).filter(Boolean);

/** Post a popup, poll, quiz question or the quiz scoreboard to the party (spec 6 host actions). */
export function PostPanel({ api, partyId }: { api: PartyLiveApi; partyId: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [popup, setPopup] = useState({ message: '', free_only: false, is_closeable: true });
  const [poll, setPoll] = useState({ question: '', options: '', duration: 60 });
  const [quiz, setQuiz] = useState({ question: '', options: '', correct: 1, duration: 30 });
  const [count, setCount] = useState(10);

  async function submit<T>(value: T | string, send: (v: T) => Promise<unknown>, done: string, reset: () => void) {
    if (typeof value === 'string') return setError(value);
    setError(null);
    setBusy(true);
    try {
      await send(value);
      notifyDone(done);
      reset();
    } catch (e) {
      notifyError(e, 'Could not post');
    } finally {
      setBusy(false);
    }
  }

  return (
    <Tabs defaultValue="poll" keepMounted={false}>
      <Tabs.List>
        <Tabs.Tab value="popup">Popup</Tabs.Tab>
        <Tabs.Tab value="poll">Poll</Tabs.Tab>
        <Tabs.Tab value="quiz">Quiz</Tabs.Tab>
        <Tabs.Tab value="scoreboard">Scoreboard</Tabs.Tab>
      </Tabs.List>
      {error && (
        <div role="alert" style={{ color: 'var(--mantine-color-red-8)', fontSize: 14, marginTop: 8 }}>
          {error}
        </div>
      )}
      <Tabs.Panel value="popup" pt="sm">
        <form onSubmit={(e) => (e.preventDefault(), void submit(check(PostPopupBody, { ...popup, is_restart: false }), (b) => api.popup(partyId, b), 'Popup posted', () => setPopup({ ...popup, message: '' })))}>
          <Stack gap="xs">
            <Textarea label="Message" value={popup.message} onChange={(e) => setPopup({ ...popup, message: e.currentTarget.value })} required autosize minRows={2} />
            <Checkbox label="Only fans without premium" checked={popup.free_only} onChange={(e) => setPopup({ ...popup, free_only: e.currentTarget.checked })} />
            <Checkbox label="Fans may close it" checked={popup.is_closeable} onChange={(e) => setPopup({ ...popup, is_closeable: e.currentTarget.checked })} />
            <Button type="submit" loading={busy}>
              Post popup
            </Button>
          </Stack>
        </form>
      </Tabs.Panel>
      <Tabs.Panel value="poll" pt="sm">
        <form
          onSubmit={(e) => (
            e.preventDefault(),
            void submit(
              check(PostPollBody, { question: poll.question, options: lines(poll.options), duration_seconds: poll.duration, set_next_track: false }),
              (b) => api.poll(partyId, b),
              'Poll posted',
              () => setPoll({ ...poll, question: '', options: '' }),
            )
          )}
        >
          <Stack gap="xs">
            <TextInput label="Question" value={poll.question} onChange={(e) => setPoll({ ...poll, question: e.currentTarget.value })} required />
            <Textarea label="Options (one per line)" value={poll.options} onChange={(e) => setPoll({ ...poll, options: e.currentTarget.value })} autosize minRows={2} required />
            <NumberInput label="Open for (seconds)" value={poll.duration} min={5} onChange={(v) => setPoll({ ...poll, duration: Number(v) || 0 })} />
            <Button type="submit" loading={busy}>
              Post poll
            </Button>
          </Stack>
        </form>
      </Tabs.Panel>
      <Tabs.Panel value="quiz" pt="sm">
        <form
          onSubmit={(e) => (
            e.preventDefault(),
            void submit(
              check(PostQuizQuestionBody, { question: quiz.question, options: lines(quiz.options), correct_answer: quiz.correct - 1, duration_seconds: quiz.duration, set_next_track: false }),
              (b) => api.quiz(partyId, b),
              'Quiz question posted',
              () => setQuiz({ ...quiz, question: '', options: '' }),
            )
          )}
        >
          <Stack gap="xs">
            <TextInput label="Question" value={quiz.question} onChange={(e) => setQuiz({ ...quiz, question: e.currentTarget.value })} required />
            <Textarea label="Options (one per line)" value={quiz.options} onChange={(e) => setQuiz({ ...quiz, options: e.currentTarget.value })} autosize minRows={2} required />
            <NumberInput label="Correct option (number)" value={quiz.correct} min={1} onChange={(v) => setQuiz({ ...quiz, correct: Number(v) || 1 })} />
            <NumberInput label="Open for (seconds)" value={quiz.duration} min={5} onChange={(v) => setQuiz({ ...quiz, duration: Number(v) || 0 })} />
            <Button type="submit" loading={busy}>
              Post quiz question
            </Button>
          </Stack>
        </form>
      </Tabs.Panel>
      <Tabs.Panel value="scoreboard" pt="sm">
        <form onSubmit={(e) => (e.preventDefault(), void submit(check(PostScoreboardBody, { count }), (b) => api.scoreboard(partyId, b.count), 'Scoreboard posted', () => undefined))}>
          <Stack gap="xs">
            <NumberInput label="Top fans to show" value={count} min={1} onChange={(v) => setCount(Number(v) || 1)} />
            <Button type="submit" loading={busy}>
              Post scoreboard
            </Button>
          </Stack>
        </form>
      </Tabs.Panel>
    </Tabs>
  );
}
