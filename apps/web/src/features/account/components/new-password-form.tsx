import { Plus } from "lucide-react";
import type { FormEvent, ReactNode } from "react";
import { Button } from "@/components/ui/button.tsx";
import { Input } from "@/components/ui/input.tsx";
import { Label } from "@/components/ui/label.tsx";

interface NewPasswordFormProps {
  /** The section's name: the field's id and the form's test id (`{id}-name`, `{id}-add`). */
  id: string;
  texts: { label: string; placeholder: string; create: string };
  name: string;
  onNameChange: (name: string) => void;
  onCreate: (name: string) => void;
  pending: boolean;
  /** The limit is reached: the button waits, and `fullText` says why. */
  full: boolean;
  fullText: string;
  /** More fields between the name and the button (which LDAP client the password is for). */
  children?: ReactNode;
}

/** Names a new password of the person's (a Wi-Fi network password, an LDAP application password). */
export function NewPasswordForm({
  id,
  texts,
  name,
  onNameChange,
  onCreate,
  pending,
  full,
  fullText,
  children,
}: NewPasswordFormProps) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onCreate(name);
  };
  return (
    <>
      <form className="flex flex-col gap-2 sm:flex-row sm:items-end" onSubmit={submit} data-testid={`${id}-add`}>
        <div className="min-w-0 flex-1 space-y-1.5">
          <Label htmlFor={`${id}-name`}>{texts.label}</Label>
          <Input
            id={`${id}-name`}
            maxLength={60}
            placeholder={texts.placeholder}
            value={name}
            onChange={(event) => onNameChange(event.target.value)}
          />
        </div>
        {children}
        <Button type="submit" disabled={name.trim().length === 0 || full} loading={pending} icon={<Plus aria-hidden />}>
          {texts.create}
        </Button>
      </form>
      {full ? <p className="text-sm text-muted-foreground">{fullText}</p> : null}
    </>
  );
}
