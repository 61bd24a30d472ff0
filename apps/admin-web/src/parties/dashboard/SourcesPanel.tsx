import { Table, Text } from '@mantine/core';
import type { PartyStatsEvent } from '@fanfare/protocol';
import { sourceRows } from './statsState.ts';

/**
 * What the listeners hear (issue 47): their own provider, the label stream, 30 s previews or
 * nothing, as each fan's app reported it; the previews line is the one a host watches.
 */
export function SourcesPanel({ sources }: { sources: PartyStatsEvent['sources'] }) {
  return (
    <>
      <Text size="sm" mb="xs">
        On previews: <strong data-testid="stat-previews">{sources.preview}</strong>
      </Text>
      <Table data-testid="sources-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Source</Table.Th>
            <Table.Th scope="col">Listeners</Table.Th>
            <Table.Th scope="col">Share</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {sourceRows(sources).map((r) => (
            <Table.Tr key={r.key} data-testid={`source-${r.key}`}>
              <Table.Th scope="row">{r.label}</Table.Th>
              <Table.Td>{r.listeners}</Table.Td>
              <Table.Td>{r.percent} %</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </>
  );
}
