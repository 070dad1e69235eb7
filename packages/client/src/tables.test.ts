/** The field and enumeration tables the client exports, as the spec lists them (their types: types.test-d.ts). */
import { describe, expect, it } from 'vitest';
import { PresetPeriods, ReadOnlyFields, UserAgents, VaultItemTypes, WriteOnlyFields } from './index.js';

describe('field tables', () => {
  it('lists the GUID as read-only and the archive data as write-only', () => {
    expect(ReadOnlyFields.monitor).toContain('MonitorGuid');
    expect(WriteOnlyFields.vaultItem).toContain('CertificateArchive.ArchiveData');
  });
});

describe('enumeration constants', () => {
  it('spell the Previous periods without a space (and list All), every user agent and vault item type', () => {
    expect(PresetPeriods.PreviousQuarter).toBe('PreviousQuarter');
    expect(Object.values(PresetPeriods)).toHaveLength(25);
    expect(Object.values(UserAgents)).toEqual(['ChromeLatest', 'EdgeLatest']);
    expect(Object.keys(VaultItemTypes)).toEqual(['CertificateArchive', 'Certificate', 'CredentialSet', 'File', 'OneTimePassword']);
  });
});
